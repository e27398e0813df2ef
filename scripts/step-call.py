# step-call.py: gdb script for scripts/step-call.sh.  Attaches to QEMU's
# gdbstub, waits for the benchmark's traced function to be hooked (the
# entry symbol called for a function in module space), then single-steps
# one whole call of it, from its first instruction back to its caller,
# and writes every pc to STEP_OUT.
import os
import gdb

out = os.environ["STEP_OUT"]
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote :" + os.environ.get("STEP_PORT", "1234"))
bp = gdb.Breakpoint(os.environ["STEP_SYM"])
bp.condition = "(unsigned long)$rsi >= 0xffffffffa0000000"
for _ in range(int(os.environ.get("STEP_SKIP", "50"))):
    gdb.execute("continue")
func = int(gdb.parse_and_eval("$rsi")) & (2**64 - 1)
bp.delete()
gdb.execute("hbreak *0x%x" % func)
gdb.execute("continue")
sp = int(gdb.parse_and_eval("$rsp")) & (2**64 - 1)
ret = int(gdb.parse_and_eval("*(unsigned long *)$rsp")) & (2**64 - 1)
gdb.execute("delete")
pcs = []
while len(pcs) < 20000:
    gdb.execute("stepi", to_string=True)
    pc = int(gdb.parse_and_eval("$pc")) & (2**64 - 1)
    pcs.append(pc)
    if pc == ret and (int(gdb.parse_and_eval("$rsp")) & (2**64 - 1)) == sp + 8:
        break
with open(out, "w") as f:
    f.writelines("%x\n" % pc for pc in pcs)
gdb.execute("kill")
