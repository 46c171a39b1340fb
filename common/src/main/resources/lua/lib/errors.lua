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

local function writes_refused(raised)
  local text = error_text(raised)
  for _, start in ipairs(WRITES_REFUSED) do
    if string.sub(text, 1, #start) == start then
      return true
    end
  end
  return false
end
