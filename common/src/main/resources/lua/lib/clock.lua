-- The Redis server clock, read once per script so that every decision of one call uses one instant.
-- seconds: float epoch seconds; millis: integer epoch milliseconds; text: "<seconds>.<microseconds>",
-- exact, for keys that Python components read as a float and for callers that need the instant.
local function server_clock()
  local time = redis.call('TIME')
  local sec, usec = tonumber(time[1]), tonumber(time[2])
  return {
    seconds = sec + usec / 1000000,
    millis = sec * 1000 + math.floor(usec / 1000),
    text = string.format('%d.%06d', sec, usec)
  }
end
