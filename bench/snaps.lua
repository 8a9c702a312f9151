-- wrk script: POST /v1/me/snaps (public Snaps) from many signed-in people, round robin over the tokens in the file given
-- after "--" (one per line), each somewhere in Williamsburg at the server's time.
local tokens = {}
local counter = 0
init = function(args)
  for line in io.lines(args[1]) do tokens[#tokens + 1] = line end
end
request = function()
  counter = counter + 1
  local token = tokens[(counter % #tokens) + 1]
  local body = string.format('{"lat": %.6f, "lon": %.6f}', 40.70 + (counter % 997) / 50000, -73.96 + (counter % 991) / 50000)
  return wrk.format("POST", "/v1/me/snaps", { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, body)
end
