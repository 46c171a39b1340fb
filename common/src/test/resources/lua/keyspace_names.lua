-- Test helper of KeyspaceTest: names keys with the keyspace library, as the scripts do.
-- ARGV: groups of template name, number of values n, then the n values. Returns one name per group.
local names, i = {}, 1
while i <= #ARGV do
  local template, n = KEYSPACE[ARGV[i]], tonumber(ARGV[i + 1])
  if template == nil then
    return redis.error_reply('no template ' .. ARGV[i] .. ' in KEYSPACE')
  end
  if type(template) == 'function' then
    names[#names + 1] = template(unpack(ARGV, i + 2, i + 1 + n))
  else
    names[#names + 1] = template
  end
  i = i + 2 + n
end
return names
