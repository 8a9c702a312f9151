-- wrk script: GET /v1/me/layout.json for many different signed-in viewers, round robin over the tokens in the
-- file given after "--" (one per line).
local tokens = {}
local counter = 0
init = function(args)
  for line in io.lines(args[1]) do tokens[#tokens + 1] = line end
end
request = function()
  counter = counter + 1
  return wrk.format("GET", "/v1/me/layout.json", { ["Authorization"] = "Bearer " .. tokens[(counter % #tokens) + 1] })
end
