import io.ingot.libc.Posix;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Time to receive a body of N bytes in 64 KiB chunks: pooled buffer grown by doubling (capped at N) vs mapped once. */
public class BodyBufferCost {
    static final byte[] CHUNK = new byte[64 * 1024];
    static long pooled(int n) {
        long t = System.nanoTime();
        ByteBuf body = null;
        for (int received = 0; received < n; received += CHUNK.length) {
            int needed = received + CHUNK.length;
            if (body == null || needed > body.capacity()) {
                long target = Math.min(n, Math.max(needed, Math.max(64 * 1024, 2L * (body == null ? 0 : body.capacity()))));
                if (body == null) body = PooledByteBufAllocator.DEFAULT.directBuffer((int) target, Integer.MAX_VALUE - 8);
                else body.capacity((int) target);
            }
            body.writeBytes(CHUNK);
        }
        body.release();
        return System.nanoTime() - t;
    }
    static long mapped(int n) {
        long t = System.nanoTime();
        Arena arena = Arena.ofShared();
        MemorySegment m = Posix.mapAnonymous(n, arena);
        ByteBuf body = Unpooled.wrappedBuffer(m.asByteBuffer()).clear();
        for (int received = 0; received < n; received += CHUNK.length) body.writeBytes(CHUNK);
        body.release();
        arena.close();
        return System.nanoTime() - t;
    }
    public static void main(String[] a) {
        for (int n : new int[] {1 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20}) {
            int reps = Math.max(20, (256 << 20) / n);
            for (int w = 0; w < reps; w++) { pooled(n); mapped(n); }
            long[] p = new long[reps], m = new long[reps];
            for (int r = 0; r < reps; r++) { p[r] = pooled(n); m[r] = mapped(n); }
            java.util.Arrays.sort(p); java.util.Arrays.sort(m);
            System.out.printf("%4d MiB: pooled-grown median %8.1f us, mapped median %8.1f us, mapped/pooled %.2f (%d interleaved reps)%n",
                n >> 20, p[reps / 2] / 1e3, m[reps / 2] / 1e3, (double) m[reps / 2] / p[reps / 2], reps);
        }
    }
}
