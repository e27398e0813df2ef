# step-call.py: gdb script for scripts/step-call.sh.  Attaches to QEMU's
# gdbstub, waits for the benchmark's traced function to be hooked (the
# entry symbol called for a function in module space), then single-steps
# one whole call of it, from its first instruction back to its caller,
# and writes every pc to STEP_OUT.  STEP_ARCH: x86_64 (default) or arm64.
import os
import gdb

out = os.environ["STEP_OUT"]
arm64 = os.environ.get("STEP_ARCH", "x86_64") == "arm64"
MASK = 2**64 - 1


def reg(name):
    return int(gdb.parse_and_eval(name)) & MASK


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote :" + os.environ.get("STEP_PORT", "1234"))
# The entry's second argument is the traced function (its first with
# STEP_FUNC_ARG=1): module text lies above the image on x86_64 and below
# it on arm64
bp = gdb.Breakpoint(os.environ["STEP_SYM"])
first = os.environ.get("STEP_FUNC_ARG", "2") == "1"
if arm64:
    stext = reg("(unsigned long)&_stext")
    arg = "$x0" if first else "$x1"
    bp.condition = "(unsigned long)%s < 0x%x" % (arg, stext)
else:
    arg = "$rdi" if first else "$rsi"
    bp.condition = "(unsigned long)%s >= 0xffffffffa0000000" % arg
for _ in range(int(os.environ.get("STEP_SKIP", "50"))):
    gdb.execute("continue")
func = reg(arg)
bp.delete()
if arm64:
    # ftrace's ip is its second patched instruction (bl ftrace_caller),
    # after mov x9, x30 at the function's first
    func -= 4
gdb.execute("hbreak *0x%x" % func)
gdb.execute("continue")
if arm64:
    sp = reg("$sp")
    ret = reg("$x30")
else:
    sp = reg("$rsp")
    ret = reg("*(unsigned long *)$rsp")
gdb.execute("delete")
pcs = []
while len(pcs) < 20000:
    gdb.execute("stepi", to_string=True)
    pc = reg("$pc")
    pcs.append(pc)
    if arm64:
        if pc == ret and reg("$sp") == sp:
            break
    elif pc == ret and reg("$rsp") == sp + 8:
        break
with open(out, "w") as f:
    f.writelines("%x\n" % pc for pc in pcs)
gdb.execute("kill")
