-- wrk script for Benchmarks/product.sh: POST one chat event per request to the real product, rotating over
-- several sessions so no single session's event queue and timers carry the whole load.
--   VH_SESSIONS=FILE wrk -t2 -c64 -d10s --latency -s Benchmarks/product_events.lua http://127.0.0.1:PORT
-- FILE holds one session per line: "ID TOKEN". Thread k of n (VH_THREADS, default 2) uses the sessions whose line
-- number is k mod n, round-robin, one request each. Body (API.md "Events"): {"type":"send","contact":"John","text":"hi"}
-- to the chat feature; VH_FEATURE and VH_BODY post another event instead (product.sh's reference run posts
-- {"type":"setUsername",...} to login).
-- Measurement harness, not product code.

local body = os.getenv("VH_BODY") or '{"type":"send","contact":"John","text":"hi"}'
local feature = os.getenv("VH_FEATURE") or "chat"
local threads = 0
local requests = {}
local next_index = 0

function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

function init(args)
  local path = os.getenv("VH_SESSIONS")
  assert(path, "set VH_SESSIONS to the sessions file")
  local count = tonumber(os.getenv("VH_THREADS") or "2")
  local line_no = 0
  for line in io.lines(path) do
    local id, token = line:match("^(%S+)%s+(%S+)")
    if id then
      if line_no % count == (thread_index or 0) % count then
        requests[#requests + 1] = wrk.format("POST", "/v1/sessions/" .. id .. "/" .. feature .. "/events",
          {["Host"] = "127.0.0.1", ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token},
          body)
      end
      line_no = line_no + 1
    end
  end
  assert(#requests > 0, "no sessions for this thread in " .. path)
end

function request()
  next_index = next_index % #requests + 1
  return requests[next_index]
end
