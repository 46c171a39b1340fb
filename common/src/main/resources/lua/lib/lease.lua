-- Splits a lease id "<domain>|<score>|<holder>" into domain and score. Read from the end: a score and a
-- holder never hold '|', but a domain may (a Python Kafka monitor names queues by tldextract).
local function lease_parts(lease_id)
  local holder_bar = string.find(lease_id, '|[^|]*$')
  if holder_bar == nil then
    return nil, nil
  end
  local score_bar = string.find(string.sub(lease_id, 1, holder_bar - 1), '|[^|]*$')
  if score_bar == nil then
    return nil, nil
  end
  return string.sub(lease_id, 1, score_bar - 1), string.sub(lease_id, score_bar + 1, holder_bar - 1)
end
