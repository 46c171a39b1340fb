-- Splits a lease id "<domain>|<score>|<holder>" into domain and score.
local function lease_parts(lease_id)
  local first = string.find(lease_id, '|', 1, true)
  if first == nil then
    return nil, nil
  end
  local second = string.find(lease_id, '|', first + 1, true)
  if second == nil then
    return nil, nil
  end
  return string.sub(lease_id, 1, first - 1), string.sub(lease_id, first + 1, second - 1)
end
