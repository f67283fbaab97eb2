-- wrk: GET each session's login snapshot in turn. VH_SESSIONS names a file of "ID TOKEN" lines.
local requests, index = {}, 0
function init(args)
  for line in io.lines(os.getenv("VH_SESSIONS")) do
    local id, token = line:match("^(%S+)%s+(%S+)")
    if id then
      requests[#requests + 1] = wrk.format("GET", "/v1/sessions/" .. id .. "/login",
        {["Host"] = "127.0.0.1", ["Authorization"] = "Bearer " .. token})
    end
  end
end
function request()
  index = index % #requests + 1
  return requests[index]
end
