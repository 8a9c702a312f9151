-- wrk script: the requests of signed_in.lua (same arguments), each connection waiting a millisecond after each answer
-- before its next request: C connections then ask about C / (1 ms + latency) a second, so a latency is read at a
-- chosen rate instead of at saturation (where it is only the queue the connections make).
dofile("bench/signed_in.lua")
delay = function() return 1 end
