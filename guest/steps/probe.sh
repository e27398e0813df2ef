# Debug step: what comm does a ping started by the shell get?
ping -c 2 127.0.0.1 > /dev/null &
sleep 0.2
echo "probe: comm of ping: $(cat /proc/$!/comm) exe: $(readlink /proc/$!/exe)"
wait
echo "probe: which ping: $(which ping)"
