-- Splits a lease id "<domain>|<score>|<holder>" into domain and score. Read from the end: a score and a
-- holder never hold '|', but a domain may (a Python Kafka monitor names queues by tldextract). nil, nil
-- for an id with fewer than two '|'.
local function lease_parts(lease_id)
  return string.match(lease_id, '^(.*)|([^|]*)|[^|]*$')
end
