-- wrk script: requests from many signed-in people, round robin over the tokens in the file given after "--"
-- (one per line). The second argument picks the request:
--   layouts    GET /v1/me/layout.json
--   revalidate GET /v1/me/layout.json with If-None-Match: the ETag on the same line of the file given third
--   locations  PUT /v1/me/location, a small move near Williamsburg at the server's time
--   snaps      POST /v1/me/snaps, a public Snap in Williamsburg at the server's time
--   frames     GET /v1/me/frame.png (1179x2556: base, glow, pins) at one of a few nearby viewports
local tokens = {}
local tags = {}
local mode = "layouts"
local counter = 0
local centers = { "40.7160,-73.9597", "40.7175,-73.9560", "40.7140,-73.9620", "40.7190,-73.9580" }

-- The layouts' and revalidations' requests are the same for each token every time: made once, in init, so that
-- wrk (on the same cores as the server) spends its time sending them rather than building them.
local prepared = {}

init = function(args)
  for line in io.lines(args[1]) do tokens[#tokens + 1] = line end
  mode = args[2] or mode
  local known = { layouts = true, revalidate = true, locations = true, snaps = true, frames = true }
  if not known[mode] then error("the mode must be layouts, revalidate, locations, snaps or frames, got " .. mode) end
  if args[3] then for line in io.lines(args[3]) do tags[#tags + 1] = line end end
  if mode == "layouts" or mode == "revalidate" then
    for index, token in ipairs(tokens) do
      local headers = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }
      if mode == "revalidate" then headers["If-None-Match"] = tags[index] end
      prepared[index] = wrk.format("GET", "/v1/me/layout.json", headers)
    end
  end
end

request = function()
  counter = counter + 1
  if #prepared > 0 then return prepared[(counter % #prepared) + 1] end
  local headers = { ["Authorization"] = "Bearer " .. tokens[(counter % #tokens) + 1], ["Content-Type"] = "application/json" }
  local lat, lon = 40.70 + (counter % 997) / 50000, -73.96 + (counter % 991) / 50000
  if mode == "locations" then
    return wrk.format("PUT", "/v1/me/location", headers, string.format('{"lat": %.6f, "lon": %.6f, "accuracyMeters": 10}', lat, lon))
  elseif mode == "snaps" then
    return wrk.format("POST", "/v1/me/snaps", headers, string.format('{"lat": %.6f, "lon": %.6f}', lat, lon))
  end
  return wrk.format("GET", "/v1/me/frame.png?center=" .. centers[(counter % #centers) + 1], headers)
end
