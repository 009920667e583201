package io.ingot.libc;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * FFM bindings for the few libc file calls Ingot makes itself ({@code open}, {@code fstat}, {@code lseek},
 * {@code pread}, {@code mmap}, {@code munmap}, {@code close}, {@code geteuid}, {@code sysconf}), in the shape of the
 * CUDA bindings: one nested holder per function whose {@code static final MethodHandle} is resolved once, on first
 * use, and called with {@code invokeExact}; constants and the {@code struct stat} layout keep their C names and
 * values, and {@code LibcHeaderConformanceTest} compiles every one of them against the real headers with gcc.
 *
 * <p>Why native calls rather than NIO: registering a client's shared memory must check the <em>opened</em> file
 * (type, owner, size) without a window in which another process swaps the path. NIO opens without following a
 * final symbolic link ({@code LinkOption.NOFOLLOW_LINKS} passes {@code O_NOFOLLOW}), but it offers no {@code fstat}
 * of an open channel's descriptor, only a second lookup by path.
 *
 * <p><b>Errors.</b> Every function that sets {@code errno} throws {@link PosixException} (call, errno and its name)
 * when it fails. <b>Platforms:</b> Linux on x86-64 and aarch64, whose flag values and {@code struct stat} differ;
 * elsewhere {@link #isAvailable()} is false and every call throws {@link UnsupportedOperationException} naming
 * {@link #unavailableReason()}. All methods are thread-safe.
 */
public final class Posix
{
    private static final String OS = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    private static final String ARCH = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    private static final boolean X86_64 = ARCH.equals("amd64") || ARCH.equals("x86_64");
    private static final boolean AARCH64 = ARCH.equals("aarch64") || ARCH.equals("arm64");
    private static final String UNAVAILABLE_REASON = !OS.startsWith("linux")
        ? "the libc bindings are written for Linux; this is " + OS
        : X86_64 || AARCH64 ? null : "the libc bindings know the flags and struct stat of x86-64 and aarch64 only; "
            + "this is " + ARCH;

    private Posix()
    {
    }

    // ------------------------------------------------------------------------------------------------------------
    // Constants: names and values from glibc's headers for this architecture. Every public static final int/long
    // field is a header constant of the same name; LibcHeaderConformanceTest checks each one with gcc.
    // ------------------------------------------------------------------------------------------------------------

    /** {@code <fcntl.h>}: open for reading only. */
    public static final int O_RDONLY = 0;
    /** {@code <fcntl.h>}: open for reading and writing. */
    public static final int O_RDWR = 2;
    /** {@code <fcntl.h>}: never block in open (a FIFO), harmless on regular files. */
    public static final int O_NONBLOCK = 04000;
    /** {@code <fcntl.h>}: fail with {@code ELOOP} when the last path component is a symbolic link. */
    public static final int O_NOFOLLOW = AARCH64 ? 0100000 : 0400000;
    /** {@code <fcntl.h>}: close the descriptor in a child after {@code exec}. */
    public static final int O_CLOEXEC = 02000000;

    /** {@code <sys/stat.h>}: mask of the file type bits of {@code st_mode}. */
    public static final int S_IFMT = 0170000;
    /** {@code <sys/stat.h>}: a regular file. */
    public static final int S_IFREG = 0100000;
    /** {@code <sys/stat.h>}: a directory. */
    public static final int S_IFDIR = 0040000;
    /** {@code <sys/stat.h>}: a symbolic link. */
    public static final int S_IFLNK = 0120000;
    /** {@code <sys/stat.h>}: a FIFO. */
    public static final int S_IFIFO = 0010000;
    /** {@code <sys/stat.h>}: a character device. */
    public static final int S_IFCHR = 0020000;
    /** {@code <sys/stat.h>}: a block device. */
    public static final int S_IFBLK = 0060000;
    /** {@code <sys/stat.h>}: a socket. */
    public static final int S_IFSOCK = 0140000;

    /** {@code <sys/mman.h>}: pages may be read. */
    public static final int PROT_READ = 1;
    /** {@code <sys/mman.h>}: pages may be written. */
    public static final int PROT_WRITE = 2;
    /** {@code <sys/mman.h>}: writes reach the file and every other mapping of it. */
    public static final int MAP_SHARED = 1;
    /** {@code <sys/mman.h>}: writes stay in this mapping. */
    public static final int MAP_PRIVATE = 2;
    /** {@code <sys/mman.h>}: memory backed by no file, zero-filled page by page on first touch. */
    public static final int MAP_ANONYMOUS = 0x20;
    /** {@code <sys/mman.h>}: reserve no swap for the mapping: only the pages touched count. */
    public static final int MAP_NORESERVE = 0x4000;

    /** {@code <unistd.h>}: {@code lseek} relative to the end of the file. */
    public static final int SEEK_END = 2;
    /** {@code <unistd.h>}: {@code sysconf} name of the page size. */
    public static final int _SC_PAGESIZE = 30;

    /** {@code <errno.h>}: operation not permitted. */
    public static final int EPERM = 1;
    /** {@code <errno.h>}: no such file or directory. */
    public static final int ENOENT = 2;
    /** {@code <errno.h>}: no such device or address. */
    public static final int ENXIO = 6;
    /** {@code <errno.h>}: bad file descriptor. */
    public static final int EBADF = 9;
    /** {@code <errno.h>}: out of memory. */
    public static final int ENOMEM = 12;
    /** {@code <errno.h>}: permission denied. */
    public static final int EACCES = 13;
    /** {@code <errno.h>}: no such device (a file that cannot be mapped). */
    public static final int ENODEV = 19;
    /** {@code <errno.h>}: not a directory. */
    public static final int ENOTDIR = 20;
    /** {@code <errno.h>}: is a directory. */
    public static final int EISDIR = 21;
    /** {@code <errno.h>}: invalid argument. */
    public static final int EINVAL = 22;
    /** {@code <errno.h>}: too many open files in the system. */
    public static final int ENFILE = 23;
    /** {@code <errno.h>}: too many open files in the process. */
    public static final int EMFILE = 24;
    /** {@code <errno.h>}: file name too long. */
    public static final int ENAMETOOLONG = 36;
    /** {@code <errno.h>}: too many symbolic links (what {@code O_NOFOLLOW} answers for a link). */
    public static final int ELOOP = 40;
    /** {@code <errno.h>}: value too large for the data type. */
    public static final int EOVERFLOW = 75;

    // ------------------------------------------------------------------------------------------------------------
    // C types and struct stat. Each layout's name is its C spelling; the conformance test checks sizeof, _Alignof
    // and the offset and size of every named member.
    // ------------------------------------------------------------------------------------------------------------

    /** C {@code int}. */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT.withName("int");
    /** C {@code long}. */
    public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG.withName("long");
    /** C {@code size_t}. */
    public static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG.withName("size_t");
    /** C {@code off_t} (64-bit with glibc on 64-bit Linux). */
    public static final ValueLayout.OfLong OFF_T = ValueLayout.JAVA_LONG.withName("off_t");
    /** C {@code uid_t}. */
    public static final ValueLayout.OfInt UID_T = ValueLayout.JAVA_INT.withName("uid_t");
    /** C {@code mode_t}. */
    public static final ValueLayout.OfInt MODE_T = ValueLayout.JAVA_INT.withName("mode_t");

    /**
     * {@code struct stat} of this architecture, with the members Ingot reads named: {@code st_dev}, {@code st_ino},
     * {@code st_mode}, {@code st_uid}, {@code st_gid}, {@code st_size}.
     */
    public static final StructLayout STAT = AARCH64
        ? MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("st_dev"),
            ValueLayout.JAVA_LONG.withName("st_ino"),
            MODE_T.withName("st_mode"),
            MemoryLayout.paddingLayout(4),
            UID_T.withName("st_uid"),
            ValueLayout.JAVA_INT.withName("st_gid"),
            MemoryLayout.paddingLayout(16),
            OFF_T.withName("st_size"),
            MemoryLayout.paddingLayout(56)).withName("stat")
        : MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("st_dev"),
            ValueLayout.JAVA_LONG.withName("st_ino"),
            MemoryLayout.paddingLayout(8),
            MODE_T.withName("st_mode"),
            UID_T.withName("st_uid"),
            ValueLayout.JAVA_INT.withName("st_gid"),
            MemoryLayout.paddingLayout(12),
            OFF_T.withName("st_size"),
            MemoryLayout.paddingLayout(88)).withName("stat");

    private static final VarHandle ST_DEV = STAT.varHandle(MemoryLayout.PathElement.groupElement("st_dev"));
    private static final VarHandle ST_INO = STAT.varHandle(MemoryLayout.PathElement.groupElement("st_ino"));
    private static final VarHandle ST_MODE = STAT.varHandle(MemoryLayout.PathElement.groupElement("st_mode"));
    private static final VarHandle ST_UID = STAT.varHandle(MemoryLayout.PathElement.groupElement("st_uid"));
    private static final VarHandle ST_SIZE = STAT.varHandle(MemoryLayout.PathElement.groupElement("st_size"));

    /** What {@code fstat} reports about an open file. */
    public record FileStatus(long device, long inode, int mode, int uid, long size)
    {
        /** @return the file type bits of {@code st_mode} ({@link #S_IFREG}, {@link #S_IFLNK}, ...) */
        public int type()
        {
            return mode & S_IFMT;
        }

        /** @return whether it is a regular file */
        public boolean isRegularFile()
        {
            return type() == S_IFREG;
        }

        /** @return the file type in words ("a directory", "a FIFO", ...) */
        public String typeName()
        {
            return switch (type())
            {
                case S_IFREG -> "a regular file";
                case S_IFDIR -> "a directory";
                case S_IFLNK -> "a symbolic link";
                case S_IFIFO -> "a FIFO";
                case S_IFCHR -> "a character device";
                case S_IFBLK -> "a block device";
                case S_IFSOCK -> "a socket";
                default -> "a file of type 0" + Integer.toOctalString(type());
            };
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Binding
    // ------------------------------------------------------------------------------------------------------------

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /** @return whether the calls are bound on this platform */
    public static boolean isAvailable()
    {
        return UNAVAILABLE_REASON == null;
    }

    /** @return why {@link #isAvailable()} is false, or {@code null} when it is true */
    public static String unavailableReason()
    {
        return UNAVAILABLE_REASON;
    }

    private static MethodHandle bind(final String symbol, final FunctionDescriptor descriptor,
        final Linker.Option... options)
    {
        if (UNAVAILABLE_REASON != null)
        {
            return null;
        }
        final Linker linker = Linker.nativeLinker();
        final Optional<MemorySegment> address = linker.defaultLookup().find(symbol);
        return address.map(found -> linker.downcallHandle(found, descriptor, options)).orElse(null);
    }

    private static MethodHandle require(final MethodHandle handle, final String symbol)
    {
        if (handle == null)
        {
            throw new UnsupportedOperationException(symbol + " is not bound: " + (UNAVAILABLE_REASON != null
                ? UNAVAILABLE_REASON : "libc exports no '" + symbol + "' symbol"));
        }
        return handle;
    }

    private static final Linker.Option ERRNO_CAPTURE = Linker.Option.captureCallState("errno");

    private static final class Open
    {
        // int open(const char *path, int flags, ...): the mode is variadic; 0 is passed (no O_CREAT).
        static final MethodHandle HANDLE = bind("open", FunctionDescriptor.of(C_INT, ValueLayout.ADDRESS, C_INT,
            C_INT), ERRNO_CAPTURE, Linker.Option.firstVariadicArg(2));
    }

    /**
     * {@code int open(const char *path, int flags)}.
     *
     * @param path  the path
     * @param flags {@code O_*} flags (without {@code O_CREAT})
     * @return the new descriptor
     * @throws PosixException when it fails (its {@link PosixException#errno()} tells why)
     */
    public static int open(final String path, final int flags)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final int fd = (int) require(Open.HANDLE, "open").invokeExact(state, arena.allocateFrom(path), flags, 0);
            if (fd < 0)
            {
                throw failure("open", state);
            }
            return fd;
        }
        catch (final PosixException | UnsupportedOperationException rethrown)
        {
            throw rethrown;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("open failed", t);
        }
    }

    private static final class Close
    {
        static final MethodHandle HANDLE = bind("close", FunctionDescriptor.of(C_INT, C_INT), ERRNO_CAPTURE);
    }

    /**
     * {@code int close(int fd)}.
     *
     * @param fd an open descriptor
     * @throws PosixException when it fails
     */
    public static void close(final int fd)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final int status = (int) require(Close.HANDLE, "close").invokeExact(state, fd);
            if (status != 0)
            {
                throw failure("close", state);
            }
        }
        catch (final PosixException | UnsupportedOperationException rethrown)
        {
            throw rethrown;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("close failed", t);
        }
    }

    private static final class Fstat
    {
        static final MethodHandle HANDLE = bind("fstat", FunctionDescriptor.of(C_INT, C_INT, ValueLayout.ADDRESS),
            ERRNO_CAPTURE);
    }

    /**
     * {@code int fstat(int fd, struct stat *buf)}: the status of the file the descriptor refers to.
     *
     * @param fd an open descriptor
     * @return its type, owner, size and identity
     * @throws PosixException when it fails
     */
    public static FileStatus fstat(final int fd)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final MemorySegment buffer = arena.allocate(STAT);
            final int status = (int) require(Fstat.HANDLE, "fstat").invokeExact(state, fd, buffer);
            if (status != 0)
            {
                throw failure("fstat", state);
            }
            return new FileStatus((long) ST_DEV.get(buffer, 0L), (long) ST_INO.get(buffer, 0L),
                (int) ST_MODE.get(buffer, 0L), (int) ST_UID.get(buffer, 0L), (long) ST_SIZE.get(buffer, 0L));
        }
        catch (final PosixException | UnsupportedOperationException rethrown)
        {
            throw rethrown;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("fstat failed", t);
        }
    }

    private static final class Lseek
    {
        // No errno capture: this is called once per request that uses a region, and must not allocate.
        static final MethodHandle HANDLE = bind("lseek", FunctionDescriptor.of(OFF_T, C_INT, OFF_T, C_INT));
    }

    /**
     * {@code off_t lseek(int fd, 0, SEEK_END)}: the file's current size, without allocating. The descriptor's
     * offset moves to the end; Ingot reads and writes such files only through mappings and {@link #pread}.
     *
     * @param fd an open descriptor
     * @return the size in bytes, or -1 when the call failed
     */
    public static long sizeOf(final int fd)
    {
        try
        {
            return (long) require(Lseek.HANDLE, "lseek").invokeExact(fd, 0L, SEEK_END);
        }
        catch (final UnsupportedOperationException rethrown)
        {
            throw rethrown;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("lseek failed", t);
        }
    }

    private static final class Pread
    {
        static final MethodHandle HANDLE = bind("pread", FunctionDescriptor.of(C_LONG, C_INT, ValueLayout.ADDRESS,
            SIZE_T, OFF_T), ERRNO_CAPTURE);
    }

    /**
     * {@code ssize_t pread(int fd, void *buf, size_t count, off_t offset)}: reads without moving the offset.
     *
     * @param fd     an open descriptor
     * @param offset where to read in the file
     * @param count  how many bytes at most
     * @return the bytes read (fewer at the end of the file)
     * @throws PosixException when it fails
     */
    public static byte[] pread(final int fd, final long offset, final int count)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final MemorySegment buffer = arena.allocate(Math.max(1, count));
            final long read = (long) require(Pread.HANDLE, "pread").invokeExact(state, fd, buffer, (long) count,
                offset);
            if (read < 0)
            {
                throw failure("pread", state);
            }
            return buffer.asSlice(0, read).toArray(ValueLayout.JAVA_BYTE);
        }
        catch (final PosixException | UnsupportedOperationException rethrown)
        {
            throw rethrown;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("pread failed", t);
        }
    }

    private static final class Mmap
    {
        static final MethodHandle HANDLE = bind("mmap", FunctionDescriptor.of(ValueLayout.ADDRESS,
            ValueLayout.ADDRESS, SIZE_T, C_INT, C_INT, C_INT, OFF_T), ERRNO_CAPTURE);
    }

    private static final class Munmap
    {
        static final MethodHandle HANDLE = bind("munmap", FunctionDescriptor.of(C_INT, ValueLayout.ADDRESS, SIZE_T));
    }

    /**
     * Maps {@code length} bytes of a file at {@code offset} ({@code mmap(NULL, ..., PROT_READ | PROT_WRITE,
     * MAP_SHARED, fd, ...)}) as a segment of {@code arena}; closing the arena unmaps it. The offset need not be
     * page-aligned: the mapping starts at the page below it and the segment at the offset.
     *
     * @param fd     an open descriptor, readable and writable
     * @param offset where the segment starts in the file
     * @param length its size in bytes, &gt; 0
     * @param arena  the owner of the mapping
     * @return the mapped bytes
     * @throws PosixException when {@code mmap} fails
     */
    public static MemorySegment mapShared(final int fd, final long offset, final long length, final Arena arena)
    {
        if (offset < 0 || length <= 0)
        {
            throw new IllegalArgumentException("mmap: offset " + offset + " must be >= 0 and length " + length
                + " > 0");
        }
        final long page = pageSize();
        final long start = offset - offset % page;
        final long span = length + (offset - start);
        return map(span, MAP_SHARED, fd, start, arena).asSlice(offset - start, length);
    }

    /**
     * Reserves {@code length} bytes of anonymous memory ({@code mmap(NULL, length, PROT_READ | PROT_WRITE,
     * MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)}) as a segment of {@code arena}; closing the arena unmaps
     * it. The kernel commits a page only when it is first touched, so the mapping costs memory only for what is
     * written into it, and its pages read as zero until then.
     *
     * @param length its size in bytes, &gt; 0
     * @param arena  the owner of the mapping
     * @return the reserved bytes
     * @throws PosixException when {@code mmap} fails (ENOMEM when the address space cannot hold it)
     */
    public static MemorySegment mapAnonymous(final long length, final Arena arena)
    {
        if (length <= 0)
        {
            throw new IllegalArgumentException("mmap: length " + length + " must be > 0");
        }
        return map(length, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0, arena);
    }

    /** {@code mmap(NULL, span, PROT_READ | PROT_WRITE, flags, fd, offset)}, unmapped when {@code arena} closes. */
    private static MemorySegment map(final long span, final int flags, final int fd, final long offset,
        final Arena arena)
    {
        final MemorySegment address;
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment state = call.allocate(CALL_STATE);
            address = (MemorySegment) require(Mmap.HANDLE, "mmap").invokeExact(state, MemorySegment.NULL, span,
                PROT_READ | PROT_WRITE, flags, fd, offset);
            if (address.address() == -1L)
            {
                throw failure("mmap", state);
            }
        }
        catch (final PosixException | UnsupportedOperationException rethrown)
        {
            throw rethrown;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("mmap failed", t);
        }
        final long base = address.address();
        final MethodHandle unmap = require(Munmap.HANDLE, "munmap");
        return address.reinterpret(span, arena, ignored -> unmap(unmap, base, span));
    }

    private static void unmap(final MethodHandle unmap, final long base, final long span)
    {
        try
        {
            final int ignored = (int) unmap.invokeExact(MemorySegment.ofAddress(base), span);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("munmap failed", t);
        }
    }

    private static final class Geteuid
    {
        static final MethodHandle HANDLE = bind("geteuid", FunctionDescriptor.of(UID_T));
    }

    /** @return {@code geteuid()}: the effective user id of this process */
    public static int geteuid()
    {
        try
        {
            return (int) require(Geteuid.HANDLE, "geteuid").invokeExact();
        }
        catch (final UnsupportedOperationException rethrown)
        {
            throw rethrown;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("geteuid failed", t);
        }
    }

    private static final class Sysconf
    {
        static final MethodHandle HANDLE = bind("sysconf", FunctionDescriptor.of(C_LONG, C_INT));
        static final long PAGE_SIZE = pageSizeOnce();

        private static long pageSizeOnce()
        {
            try
            {
                final long size = HANDLE == null ? -1 : (long) HANDLE.invokeExact(_SC_PAGESIZE);
                return size > 0 ? size : 4096;
            }
            catch (final Throwable t)
            {
                return 4096;
            }
        }
    }

    /** @return {@code sysconf(_SC_PAGESIZE)}, read once */
    public static long pageSize()
    {
        return Sysconf.PAGE_SIZE;
    }

    private static PosixException failure(final String call, final MemorySegment state)
    {
        return new PosixException(call, (int) ERRNO.get(state, 0L));
    }
}
