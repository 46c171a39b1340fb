-- Test helper of MemberFieldsTest: the crawl fields lib/member reads from each member in ARGV, as the hand-out does
-- (score 0). Five values a member: appid, crawlid, priority, expires as a whole number, and how they were read,
-- "leading" (from the member's start) or "decoded"; five empty texts for a member of no crawl.
local read = {}
for _, member in ipairs(ARGV) do
  local fields = crawl_fields(member, '0')
  if fields == nil then
    for _ = 1, 5 do
      read[#read + 1] = ''
    end
  else
    read[#read + 1] = fields.appid
    read[#read + 1] = fields.crawlid
    read[#read + 1] = fields.priority
    read[#read + 1] = string.format('%.0f', fields.expires)
    read[#read + 1] = leading_crawl_fields(member) and 'leading' or 'decoded'
  end
end
return read
