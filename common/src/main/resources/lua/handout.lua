-- Throttled hand-out decisions for domain queues, one after another in one call (docs/architecture.md
-- "Leases", docs/architecture.md, guarantee 2): a node asks for the domains that became ready while its
-- previous call was out together. Needs the keyspace library, lib/clock, lib/member, lib/accounting,
-- lib/batch, lib/errors.
--
-- Eight keys and eight arguments per decision; those of decision i start after KEYS[k] and ARGV[k],
-- k = (i - 1) * 8:
-- KEYS[k+1] <spiderid>:<domain>:queue      KEYS[k+2] <throttlekey>:throttle_window
-- KEYS[k+3] <throttlekey>:throttle_time    KEYS[k+4] <spiderid>:blacklist
-- KEYS[k+5] <spiderid>:active_domains      KEYS[k+6] <spiderid>:leased
-- KEYS[k+7] <spiderid>:leases              KEYS[k+8] <throttlekey>:throttle_pause
-- ARGV[k+1] window seconds (float > 0)     ARGV[k+2] limit (integer >= 0)
-- ARGV[k+3] "1" when moderated             ARGV[k+4] lease milliseconds, "0" to pop (delete) instead
-- ARGV[k+5] holder (part of the lease id)  ARGV[k+6] spiderid
-- ARGV[k+7] domain                         ARGV[k+8] most members dropped in one decision
--
-- Returns seven values per decision, in order, {outcome, dropped, wait_ms, member, score, lease_id, at}:
--   {'HANDED_OUT', dropped, 0, member, score, lease_id or '', at}   at = server time "<s>.<us>"
--   {'WAIT', dropped, ms, '', '', '', ''}   ms until a slot can free or the pause ends; 0 = call
--                                           again now (the drop bound was reached with members left)
--   {'EMPTY', dropped, 0, '', '', '', ''}   the queue is empty; the domain left active_domains (the
--                                           throttle is asked first: while it says WAIT, so does an
--                                           empty queue)
--   {'PAUSED', 0, 0, '', '', '', ''}        limit 0: the domain is paused
--   {'FAILED', dropped, 0, error, '', '', ''}  a command failed (a key of the wrong type, a value Redis
--                                           cannot use): the decision put back what it took (put_back),
--                                           and the decisions after it are made all the same
-- A throttle slot is spent only by HANDED_OUT.

local PER_DECISION = 8
-- a window key longer than this is trimmed even below its limit, once every TRIM_EVERY hand-outs
local TRIM_LENGTH = 128
local TRIM_EVERY = 32
local clock = server_clock()

local function reply(outcome, dropped, wait_ms, member, score, lease_id, at)
  return {outcome, dropped, wait_ms, member or '', score or '', lease_id or '', at or ''}
end

local function millis_until(seconds)
  return math.max(1, math.ceil(seconds * 1000))
end

-- The time of the newest of the used entries of window_key (epoch seconds), 0 when it holds none: when a hand-out was
-- last made under the throttle key, moderated or not.
local function newest_entry(window_key, used)
  if used == 0 then
    return 0
  end
  return tonumber(redis.call('ZRANGE', window_key, -1, -1, 'WITHSCORES')[2]) or 0
end

-- What the call has looked up once: whether a crawl is stopped (lib/batch).
local batch = new_batch()

-- What the decision being made has taken so far: the head of its queue (member, score, and
-- length_changed once queue_lengths counts it out), its lease (lease_id once written, deadline once
-- that is), its window entry; and how many members it dropped, for its answer should it fail. Redis
-- keeps what a failing script wrote (docs/architecture.md "Leases"), so a decision that fails partway,
-- on a key of the wrong type or a value Redis cannot use, puts back what it took (put_back): a popped
-- request is never lost and a leased one never waits for the reaper.
local taken

-- The decision for the queue whose keys and arguments start after KEYS[k] and ARGV[k]. The throttle
-- is asked first and the queue last, so that a WAIT never reads the queue and a hand-out takes its
-- member in one command; an empty queue is therefore found by the first call the throttle lets
-- through (a paused one is looked at, so that it leaves the active domains).
local function decide(k)
  local queue, window_key, time_key = KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]
  local blacklist, active, leased, leases, pause_key = KEYS[k + 4], KEYS[k + 5], KEYS[k + 6], KEYS[k + 7], KEYS[k + 8]
  local window, limit = tonumber(ARGV[k + 1]), tonumber(ARGV[k + 2])
  local moderated = ARGV[k + 3] == '1' and limit > 1
  local lease_ms, holder = tonumber(ARGV[k + 4]), ARGV[k + 5]
  local spider, domain, max_drops = ARGV[k + 6], ARGV[k + 7], tonumber(ARGV[k + 8])
  if limit <= 0 then
    if redis.call('EXISTS', queue) == 0 then
      redis.call('ZREM', active, domain)
      return reply('EMPTY', 0, 0)
    end
    return reply('PAUSED', 0, 0)
  end

  -- a server asked us to back off (429 / 503 with Retry-After): nothing until the pause key expires
  local paused_ms = redis.call('PTTL', pause_key)
  if paused_ms > 0 then
    return reply('WAIT', 0, paused_ms)
  end

  -- a hand-out keeps the throttle keys for two windows (lib/window), and so does a WAIT
  local ttl = window_ttl(window)

  -- entries older than the window are trimmed when they could matter, when even counting them the
  -- window is at its limit, and when the key grows longer than TRIM_LENGTH: a limit far above the rate
  -- (a throttle opened up) would otherwise keep every hand-out until the key expires. Above that length
  -- only every TRIM_EVERY-th count trims (the count grows by one a hand-out, so it passes each multiple):
  -- a domain handed out faster than TRIM_LENGTH a window would otherwise trim, and count again, at every
  -- decision, two commands of the nine it makes (docs/benchmarks.md)
  local used = redis.call('ZCARD', window_key)
  if used >= limit or (used > TRIM_LENGTH and used % TRIM_EVERY == 0) then
    local stale = redis.call('ZCOUNT', window_key, '-inf', string.format('(%.6f', clock.seconds - window))
    used = used - stale
    if used == 0 then
      -- the newest entry stays, though older than the window and not counted: it is the hand-out before the next, which
      -- a node's first request after reading a Crawl-delay is checked against (docs/throttling.md), and a window of one
      -- hit would otherwise lose it at every hand-out
      stale = stale - 1
    end
    if stale > 0 then
      redis.call('ZREMRANGEBYRANK', window_key, 0, stale - 1)
    end
  end
  if used >= limit then
    -- the slot frees when the entry that must leave for the count to drop below the limit leaves
    local freeing = redis.call('ZRANGE', window_key, used - limit, used - limit, 'WITHSCORES')
    redis.call('EXPIRE', window_key, ttl)
    return reply('WAIT', 0, millis_until(tonumber(freeing[2]) + window - clock.seconds))
  end
  if moderated then
    -- the last hand-out is the later of the time key and the window's newest entry: hand-outs not moderated write no
    -- time key (a domain moderated only since them: a Crawl-delay read since, a limit raised above one), and leave the
    -- one a moderated hand-out before them wrote, which would space the next from that older time
    local last = math.max(tonumber(redis.call('GET', time_key) or '') or 0, newest_entry(window_key, used))
    local spacing = window / limit
    if clock.seconds - last < spacing then
      redis.call('EXPIRE', time_key, ttl)
      redis.call('EXPIRE', window_key, ttl)
      return reply('WAIT', 0, millis_until(last + spacing - clock.seconds))
    end
  end

  local dropped = 0
  while true do
    local head = redis.call('ZPOPMIN', queue)
    if #head == 0 then
      redis.call('ZREM', active, domain)
      return reply('EMPTY', dropped, 0)
    end
    local member, score = head[1], head[2]
    taken.member, taken.score = member, score
    queue_length_changed(spider, domain, -1)
    taken.length_changed = true
    local fields = crawl_fields(member, score)
    if fields ~= nil and (expired(fields, clock) or crawl_stopped(batch, blacklist, fields)) then
      account_or_distrust(account_dropped, spider, fields, domain, clock)
      taken.member, taken.length_changed = nil, nil
      dropped = dropped + 1
      taken.dropped = dropped
      if dropped >= max_drops then
        return reply('WAIT', dropped, 0)
      end
    else
      -- the lease's deadline goes in with it, should putting back ever fail: a lease without a deadline
      -- would never be reaped
      local lease_id = ''
      if lease_ms > 0 then
        lease_id = domain .. '|' .. score .. '|' .. holder
        if redis.call('HSETNX', leased, lease_id, member) == 0 then
          error('lease id ' .. lease_id .. ' is already in use: holders must be unique', 0)
        end
        taken.lease_id = lease_id
        redis.call('ZADD', leases, clock.millis + lease_ms, lease_id)
        taken.deadline = true
      end
      taken.window_entry = add_window_entry(window_key, clock)
      redis.call('EXPIRE', window_key, ttl)
      if lease_ms > 0 then
        account_or_distrust(unaccounted, spider, fields, domain, clock)
      else
        account_or_distrust(account_removed, spider, fields, domain, clock)
      end
      -- last, as nothing puts it back
      if moderated then
        redis.call('SET', time_key, clock.text, 'EX', ttl)
      end
      return reply('HANDED_OUT', dropped, 0, member, score, lease_id, clock.text)
    end
  end
end

-- Undoes what the decision whose keys and arguments start after KEYS[k] and ARGV[k] has taken, newest
-- first. Each command undoes one that succeeded on the same key in this call, so none should fail;
-- should one (two roles given one key name), the decision's answer says so.
local function put_back(k)
  if taken.window_entry then
    redis.call('ZREM', KEYS[k + 2], taken.window_entry)
  end
  if taken.deadline then
    redis.call('ZREM', KEYS[k + 7], taken.lease_id)
  end
  if taken.lease_id then
    redis.call('HDEL', KEYS[k + 6], taken.lease_id)
  end
  if taken.member then
    redis.call('ZADD', KEYS[k + 1], taken.score, taken.member)
    if taken.length_changed then
      queue_length_changed(ARGV[k + 6], ARGV[k + 7], 1)
    end
  end
end

local answers = {}
for k = 0, #KEYS - PER_DECISION, PER_DECISION do
  taken = { dropped = 0 }
  local ok, answer = pcall(decide, k)
  if not ok then
    local text = error_text(answer)
    -- no fault of this domain's keys (lib/errors); it comes at the first write, so no decision took anything
    if writes_refused(text) then
      return redis.error_reply(text)
    end
    local put, put_failure = pcall(put_back, k)
    if not put then
      text = text .. '; putting back what it took failed too: ' .. error_text(put_failure)
    end
    answer = reply('FAILED', taken.dropped, 0, text)
  end
  for _, value in ipairs(answer) do
    answers[#answers + 1] = value
  end
end
return answers
