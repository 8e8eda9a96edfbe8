"""Where kgen's calls go while torch.compile traces them.  kgen._torch sets
these when torch is there: `compiling` to torch.compiler.is_compiling
(which Dynamo reads as True while it traces), and the others to functions
that call kgen's torch custom ops, which Dynamo puts in the graph.  Until
then nothing is compiling and the calls run as they are."""


def _never():
    return False


compiling = _never
reduce = transpose = matmul = rows = scan = None
