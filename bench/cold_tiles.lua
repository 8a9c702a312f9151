-- wrk script: every request asks for a tile nobody asked for before, so the server makes each one: the cold-tile
-- load. PNG (default): a 200 × 200 block of zoom-18 tiles over Williamsburg, 40,000 in all, more than a 10 s run
-- asks for. mvt (the first argument after `--`; asked for gzipped, as phones do): vector tiles come some twenty
-- times faster, so an 800 × 800 block of zoom-18 tiles round it (640,000, over north Brooklyn, Manhattan and
-- Queens). (Cycling through a few thousand tiles, as this script once did, measured the tile cache after the
-- first pass.)
local counter = 0
local format, side, left, top = "png", 200, 77150, 98450
local headers = {}

function init(args)
  if args[1] == "mvt" then
    format, side, left, top = "mvt", 800, 76850, 98150
    headers["Accept-Encoding"] = "gzip"
  end
end

request = function()
  local x = left + counter % side
  local y = top + math.floor(counter / side) % side
  counter = counter + 1
  return wrk.format("GET", "/tiles/18/" .. x .. "/" .. y .. "." .. format, headers)
end
