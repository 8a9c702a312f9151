-- wrk script: GET /v1/me/frame.png (the whole @3x Williamsburg frame: base, glow, pins) for many different
-- signed-in viewers, round robin over the tokens in the file given after "--", each looking at one of a few
-- nearby viewports (as people around Williamsburg do).
local tokens = {}
local counter = 0
local centers = { "40.7160,-73.9597", "40.7175,-73.9560", "40.7140,-73.9620", "40.7190,-73.9580" }
init = function(args)
  for line in io.lines(args[1]) do tokens[#tokens + 1] = line end
end
request = function()
  counter = counter + 1
  local center = centers[(counter % #centers) + 1]
  return wrk.format("GET", "/v1/me/frame.png?center=" .. center, { ["Authorization"] = "Bearer " .. tokens[(counter % #tokens) + 1] })
end
