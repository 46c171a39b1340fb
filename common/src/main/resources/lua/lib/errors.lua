-- How a script tells apart the errors of the commands it runs (docs/operations.md "Keys Redis refuses"),
-- the way RedisErrors does in Java: an error about a key (of another type, holding no number) refuses
-- the request or decision naming it, and Redis would answer it again however often it is asked; an
-- error that says Redis takes no write at all, whatever the keys, is no fault of one request: it fails
-- the whole call, for the caller to wait it out as an outage (docs/operations.md "Redis memory").

-- The text of an error caught by pcall: a string, or a table {err = text} for a failed command on the
-- Redis versions that raise those.
local function error_text(raised)
  if type(raised) == 'table' and raised.err then
    return raised.err
  end
  return tostring(raised)
end

-- The reply of a read run under redis.pcall, or nil when Redis refused it (a key of another type at its name,
-- written by hand): such a key reads as holding nothing, and the caller tells it apart where that matters.
local function unless_refused(reply)
  if type(reply) == 'table' and reply.err then
    return nil
  end
  return reply
end

-- The starts of the errors Redis answers writes with while it takes none, whatever the keys: a replica, a
-- failed save, too few replicas, out of memory (a write that may add data, while the call has changed
-- nothing). Such an error comes at the first write of a call, so nothing of the call is written then.
local WRITES_REFUSED = { 'READONLY', 'MISCONF', 'NOREPLICAS', 'OOM' }

-- Redis' own words in an error raised inside a script: Redis 6.2 and before put where the script was in front of
-- them, and the dash of the reply ('@user_script: 73: -OOM command not allowed ...'); Redis 7 gives them bare.
local function own_words(text)
  local before
  repeat
    before = text
    text = string.gsub(text, '^@?[%w_]+: ?%d+: ', '', 1)
  until text == before
  return (string.gsub(text, '^%-', '', 1))
end

local function writes_refused(raised)
  local text = own_words(error_text(raised))
  for _, start in ipairs(WRITES_REFUSED) do
    if string.sub(text, 1, #start) == start then
      return true
    end
  end
  return false
end
