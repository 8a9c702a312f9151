-- wrk script: every request asks for a tile nobody asked for before (a 200 × 200 block of zoom-18 tiles over
-- Williamsburg, 40,000 in all, more than a 10 s run asks for), so the server renders each one: the cold-tile load.
-- (Cycling through a few thousand tiles, as this script once did, measured the tile cache after the first pass.)
local counter = 0
request = function()
  local x = 77150 + counter % 200
  local y = 98450 + math.floor(counter / 200) % 200
  counter = counter + 1
  return wrk.format("GET", "/tiles/18/" .. x .. "/" .. y .. ".png")
end
