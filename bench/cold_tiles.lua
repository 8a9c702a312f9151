-- wrk script: every request asks for a tile nobody asked for before (zoom 17 and 18 around Williamsburg),
-- so the server renders each one: the cold-tile load.
local counter = 0
request = function()
  counter = counter + 1
  local z = 17 + (counter % 2)
  local span = z == 17 and 60 or 120
  local x0 = z == 17 and 38590 or 77180
  local y0 = z == 17 and 49250 or 98500
  local x = x0 + (counter * 7) % span
  local y = y0 + math.floor(counter * 7 / span) % span
  return wrk.format("GET", "/tiles/" .. z .. "/" .. x .. "/" .. y .. ".png")
end
