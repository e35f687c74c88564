-- wrk script: GET rows of a table of BENCH_SECTIONS × BENCH_ROWS rows as users read them
-- (scripts/bench/measure.py, reads). BENCH_READS: "same" (section 0 row 0 every time),
-- "uniform" (every row as likely) or "zipf" (the row of rank k with weight 1/k^1.1; ranks
-- are scattered over the table by a fixed stride, so the popular rows are not neighbours).
local table_id = os.getenv("BENCH_TABLE")
local sections = tonumber(os.getenv("BENCH_SECTIONS"))
local rows = tonumber(os.getenv("BENCH_ROWS"))
local mode = os.getenv("BENCH_READS")
local total = sections * rows
local cumulative = {}

function init(args)
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
  if mode == "zipf" then
    local sum = 0
    for rank = 1, total do
      sum = sum + rank ^ -1.1
      cumulative[rank] = sum
    end
    for rank = 1, total do
      cumulative[rank] = cumulative[rank] / sum
    end
  end
end

local function zipf_rank()
  local u = math.random()
  local low, high = 1, total
  while low < high do
    local middle = math.floor((low + high) / 2)
    if cumulative[middle] < u then low = middle + 1 else high = middle end
  end
  return low - 1
end

function request()
  local index = 0
  if mode == "uniform" then
    index = math.random(0, total - 1)
  elseif mode == "zipf" then
    index = (zipf_rank() * 7919) % total
  end
  local section = math.floor(index / rows)
  return wrk.format("GET", "/api/tables/" .. table_id .. "/sections/" .. section .. "/rows/" .. (index % rows))
end
