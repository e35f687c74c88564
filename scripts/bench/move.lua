-- wrk script: random single-row moves in section 0 of a table of `rows` rows.
-- Set by the driver through the environment: BENCH_TABLE, BENCH_ROWS.
local table_id = os.getenv("BENCH_TABLE")
local rows = tonumber(os.getenv("BENCH_ROWS"))
local counter = 0

function request()
  counter = counter + 1
  local from = math.random(0, rows - 1)
  local to = math.random(0, rows - 1)
  local path = string.format("/api/tables/%s/sections/0/rows/%d/move", table_id, from)
  local body = string.format('{"to":[0,%d]}', to)
  return wrk.format("POST", path, {["Content-Type"] = "application/json"}, body)
end
