-- The crawl fields of a member as this project's crawlers write it (docs/compatibility.md §4.4.1): its "url"
-- first, then its "meta" with "appid", "crawlid", "priority" and "expires" first, each written plainly (no escape
-- in the texts, whole numbers). Read by matching the member's start, without decoding it: cjson.decode was a
-- quarter of a hand-out decision (docs/cpu-per-page.md, "A member's crawl fields read from its start"). nil for any other member (a feed item, a Python crawler's
-- request), which crawl_fields decodes. For a JSON object that names no key twice, as one written from a map never
-- does, the fields so read are those cjson reads.
local function leading_crawl_fields(member)
  local appid, crawlid, priority, expires = string.match(member,
    '^{"url":"[^"\\]*","meta":{"appid":"([^"\\]*)","crawlid":"([^"\\]*)","priority":(%-?%d+),"expires":(%-?%d+)[,}]')
  if appid == nil then
    return nil
  end
  return {
    appid = appid,
    crawlid = crawlid,
    priority = string.format('%d', tonumber(priority)),
    priority_given = true,
    expires = tonumber(expires)
  }
end

-- The crawl fields of a queue member, whichever of the two shapes it has: a feed item carries them
-- at the top level, a serialized request inside "meta". Returns nil for a member that is not a JSON
-- object with string "appid" and "crawlid" (such a member belongs to no crawl we can account for).
-- priority is the crawl priority as an integer label ("%d"), falling back to the negated queue score
-- when the member has no numeric priority (priority_given tells which); expires is 0 when absent.
local function crawl_fields(member, score)
  local leading = leading_crawl_fields(member)
  if leading ~= nil then
    return leading
  end
  local ok, decoded = pcall(cjson.decode, member)
  if not ok or type(decoded) ~= 'table' then
    return nil
  end
  local fields = decoded
  if type(decoded.meta) == 'table' then
    fields = decoded.meta
  end
  if type(fields.appid) ~= 'string' or type(fields.crawlid) ~= 'string' then
    return nil
  end
  local priority = fields.priority
  local priority_given = type(priority) == 'number'
  if not priority_given then
    priority = -(tonumber(score) or 0)
  end
  local expires = fields.expires
  if type(expires) ~= 'number' then
    expires = 0
  end
  return {
    appid = fields.appid,
    crawlid = fields.crawlid,
    priority = string.format('%d', priority),
    priority_given = priority_given,
    expires = expires
  }
end

-- The crawl fields a caller passed beside a request: four arguments from ARGV[base] (appid, crawlid,
-- priority as an integer label, expires), the same table crawl_fields reads from a member, or nil when
-- they are empty (the request belongs to no crawl). Java has these fields before it encodes a member
-- and after it decodes one, so the scripts it calls never decode a member for them.
local function passed_crawl_fields(base)
  if ARGV[base + 2] == '' then
    return nil
  end
  return {
    appid = ARGV[base],
    crawlid = ARGV[base + 1],
    priority = ARGV[base + 2],
    priority_given = true,
    expires = tonumber(ARGV[base + 3]) or 0
  }
end

-- The member of <spiderid>:blacklist that names the crawl of these fields (needs the keyspace library).
local function blacklist_entry(fields)
  return KEYSPACE.blacklist_entry(fields.appid, fields.crawlid)
end

-- True when the crawl of these fields has an expiry that the clock has reached.
local function expired(fields, clock)
  return fields.expires ~= 0 and clock.seconds >= fields.expires
end
