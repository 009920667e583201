p='/work/main/api/src/main/java/io/ingot/api/ResponseFuture.java'
s=open(p).read()
s=s.replace("""    public static final long SPIN_BEFORE_YIELD_NANOS = 1_000L;
""","""    public static final long SPIN_BEFORE_YIELD_NANOS = 1_000L;
    private static final long SPIN_BEFORE_YIELD = Long.getLong("ingot.experiment.spinBeforeYieldNanos",
        SPIN_BEFORE_YIELD_NANOS);
""")
s=s.replace("        if (waited >= SPIN_BEFORE_YIELD_NANOS)","        if (waited >= SPIN_BEFORE_YIELD)")
open(p,'w').write(s)
