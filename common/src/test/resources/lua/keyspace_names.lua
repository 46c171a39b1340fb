-- Test helper of KeyspaceTest: fills KEYSPACE patterns with the keyspace library, as the scripts do.
-- ARGV: groups of template name, number of values n, then the n values. Returns one name per group.
local names, i = {}, 1
while i <= #ARGV do
  local pattern, n = KEYSPACE[ARGV[i]], tonumber(ARGV[i + 1])
  if pattern == nil then
    return redis.error_reply('no template ' .. ARGV[i] .. ' in KEYSPACE')
  end
  names[#names + 1] = keyspace_name(pattern, unpack(ARGV, i + 2, i + 1 + n))
  i = i + 2 + n
end
return names
