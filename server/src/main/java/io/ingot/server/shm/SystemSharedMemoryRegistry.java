package io.ingot.server.shm;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.ipc.HeaderDescriptor;
import io.ingot.ipc.IpcRegion;
import io.ingot.libc.Posix;
import io.ingot.libc.PosixException;
import io.ingot.server.net.ClientText;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The system shared-memory regions clients registered (Triton's system shared-memory extension): POSIX
 * shared-memory objects, opened by key under {@code /dev/shm} and mapped with {@code mmap} ({@link Posix}).
 * Requests reference a region by name, offset and size, and the server reads inputs from and writes outputs to it
 * in place.
 *
 * <p>A key names memory the client may hand to the server, never any file the server can open. An object is
 * opened as glibc's {@code shm_open} opens it ({@code O_RDWR | O_NOFOLLOW | O_CLOEXEC} under {@code /dev/shm}, so a
 * symbolic link is refused), and what was opened is checked with {@code fstat}: a regular file, owned by the user
 * the server runs as, large enough for the region. Ingot's own IPC region files ({@code /dev/shm/ingot-NAME}, the
 * IPC transport's private memory) are refused by name and by their header. Each use checks the object's current
 * size again, so a client that truncates its object gets a 400 naming the sizes instead of a fault. Every refusal
 * is INVALID_ARG (HTTP 400) and names the region, the key and the reason.
 *
 * <p>Unregistering a region that requests still use succeeds at once, and the region stays registered until the last
 * of them completes, as in Triton (server src/shared_memory_manager.cc {@code UnregisterHelper}: the region is marked
 * awaiting unregister, listed by the status, usable by new requests and its name taken; the request that completes
 * last unregisters it). Unregistering a name that is not registered succeeds and does nothing.
 *
 * <p>Thread-safe: both frontends share one registry.
 */
public final class SystemSharedMemoryRegistry implements AutoCloseable
{
    /** Key prefix Triton reserves for its Python backend; refused as Triton does. */
    public static final String RESERVED_KEY_PREFIX = "triton_python_backend_shm_region_";

    /** Triton's answer to a registration or unregistration while client shared memory is disabled. */
    public static final String CLIENT_SHM_DISABLED = "Client shared memory is disabled. Start the server with "
        + "'--allow-client-shm=true' to enable.";

    /** Most regions registered at once: each holds a mapping and a descriptor. */
    public static final int MAX_REGIONS = 4096;

    private static final int OPEN_FLAGS = Posix.O_RDWR | Posix.O_NOFOLLOW | Posix.O_CLOEXEC | Posix.O_NONBLOCK;

    private final Path root;
    private final boolean enabled;
    private final ConcurrentHashMap<String, SharedMemoryRegion> regions = new ConcurrentHashMap<>();

    /**
     * @param root    where POSIX shared-memory objects live ({@code /dev/shm} on Linux)
     * @param enabled false to refuse every registration (Triton's {@code --allow-client-shm=false})
     */
    public SystemSharedMemoryRegistry(final Path root, final boolean enabled)
    {
        this.root = root;
        this.enabled = enabled;
    }

    /** @return a registry over {@code /dev/shm} that accepts registrations. */
    public static SystemSharedMemoryRegistry devShm()
    {
        return new SystemSharedMemoryRegistry(Path.of("/dev/shm"), true);
    }

    /**
     * Maps {@code byteSize} bytes at {@code offset} of the object {@code key} and registers them as {@code name}.
     *
     * @param name     region name, unique among registered regions
     * @param key      POSIX shared-memory name ({@code /input_simple}), as given to {@code shm_open}
     * @param offset   offset of the region in the object
     * @param byteSize size of the region
     * @throws InferenceException UNSUPPORTED when client shared memory is disabled; ALREADY_EXISTS for a taken name;
     *                            INVALID_ARG for a bad key, an object that cannot be opened, or a range outside it
     */
    public void register(final String name, final String key, final long offset, final long byteSize)
    {
        requireClientShm();
        if (name == null || name.isEmpty())
        {
            throw invalid("a shared memory region needs a non-empty name");
        }
        final Path file = resolveKey(name, key);
        if (offset < 0 || byteSize <= 0)
        {
            throw invalid("failed to register shared memory region '" + shown(name) + "': invalid args (offset "
                + Long.toUnsignedString(offset) + " and byte_size " + Long.toUnsignedString(byteSize)
                + ": the offset must be below 2^63 and the byte_size positive)");
        }
        if (regions.containsKey(name))
        {
            throw new InferenceException(ErrorCode.ALREADY_EXISTS, "shared memory region '" + shown(name)
                + "' already in manager");
        }
        if (regions.size() >= MAX_REGIONS)
        {
            throw invalid("failed to register shared memory region '" + shown(name) + "': " + MAX_REGIONS
                + " regions are registered, the most this server holds; unregister some first");
        }
        if (!Posix.isAvailable())
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED, "system shared memory is not supported on this "
                + "platform: " + Posix.unavailableReason());
        }
        final SharedMemoryRegion region = map(name, key, file, offset, byteSize);
        region.onDeferredUnmap(gone -> regions.remove(gone.name(), gone));
        if (regions.putIfAbsent(name, region) != null)
        {
            region.unregister();
            throw new InferenceException(ErrorCode.ALREADY_EXISTS, "shared memory region '" + shown(name)
                + "' already in manager");
        }
    }

    /**
     * Refuses a client's registration or unregistration when client shared memory is disabled, with Triton's error
     * (server src/common.h {@code kClientShmDisabledErrorStr}, used by http_server.cc and grpc_server.cc for
     * register and unregister, system and CUDA alike).
     *
     * @throws InferenceException UNSUPPORTED when disabled
     */
    public void requireClientShm()
    {
        if (!enabled)
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED, CLIENT_SHM_DISABLED);
        }
    }

    /**
     * Unregisters one region; an unknown name is not an error (as in Triton). A region that requests hold stays
     * registered until the last of them completes (see the class comment).
     *
     * @param name the region name
     * @throws InferenceException UNSUPPORTED when client shared memory is disabled, as in Triton
     */
    public void unregister(final String name)
    {
        requireClientShm();
        retire(name);
    }

    /**
     * Unregisters every region.
     *
     * @throws InferenceException UNSUPPORTED when client shared memory is disabled, as in Triton
     */
    public void unregisterAll()
    {
        requireClientShm();
        retireAll();
    }

    private void retire(final String name)
    {
        final SharedMemoryRegion region = regions.get(name);
        if (region != null && region.unregister())
        {
            regions.remove(name, region);
        }
    }

    private void retireAll()
    {
        for (final String name : List.copyOf(regions.keySet()))
        {
            retire(name);
        }
    }

    /**
     * @param name a region name, or {@code null}/empty for every region
     * @return the matching regions, ordered by name
     * @throws InferenceException NOT_FOUND for an unknown name
     */
    public List<SharedMemoryRegion> status(final String name)
    {
        if (name != null && !name.isEmpty())
        {
            final SharedMemoryRegion region = regions.get(name);
            if (region == null)
            {
                throw new InferenceException(ErrorCode.NOT_FOUND, "Unable to find system shared memory region: '"
                    + shown(name) + "'");
            }
            return List.of(region);
        }
        final List<SharedMemoryRegion> all = new ArrayList<>(regions.values());
        all.sort(Comparator.comparing(SharedMemoryRegion::name));
        return all;
    }

    /**
     * Holds part of a region for one tensor of one request, after checking that it lies inside the region, with
     * Triton's checks and messages (server src/shared_memory_manager.cc {@code GetMemoryInfo}): the offset must lie
     * inside the region (an offset equal to its size is refused even for zero bytes), and offset + byte_size must
     * neither overflow 64 bits nor pass the region's end. Ingot's detail follows Triton's text.
     *
     * @param regionName the region the request names
     * @param offset     offset inside the region, an unsigned 64-bit value
     * @param byteSize   bytes the tensor may use, an unsigned 64-bit value
     * @param tensor     the tensor's name, for messages
     * @return the held slice; release it when the response was delivered
     * @throws InferenceException NOT_FOUND for an unknown region, INVALID_ARG for a range outside it
     */
    public ShmSlice acquire(final String regionName, final long offset, final long byteSize, final String tensor)
    {
        final SharedMemoryRegion region = regions.get(regionName);
        if (region == null || !region.tryAcquire())
        {
            throw new InferenceException(ErrorCode.NOT_FOUND, "Unable to find shared memory region: '"
                + shown(regionName) + "' (referenced by tensor '" + shown(tensor) + "')");
        }
        final String detail = " (tensor '" + shown(tensor) + "': offset " + Long.toUnsignedString(offset)
            + ", byte_size " + Long.toUnsignedString(byteSize) + ", region of " + region.byteSize() + " bytes)";
        if (Long.compareUnsigned(offset, region.byteSize()) >= 0)
        {
            region.release();
            throw invalid("Invalid offset for shared memory region: '" + shown(regionName) + "'" + detail);
        }
        if (Long.compareUnsigned(byteSize, -1L - offset) > 0)
        {
            region.release();
            throw invalid("Integer overflow detected: byte_size (" + Long.toUnsignedString(byteSize) + ") + offset ("
                + Long.toUnsignedString(offset) + ") exceeds maximum value (" + Long.toUnsignedString(-1L)
                + ") for region '" + shown(regionName) + "'");
        }
        if (Long.compareUnsigned(offset + byteSize, region.byteSize()) > 0)
        {
            region.release();
            throw invalid("Invalid offset + byte size for shared memory region: '" + shown(regionName) + "'"
                + detail);
        }
        // The client may have truncated its object since it registered it: touching mapped pages past the end of
        // the file would fault (SIGBUS). The client is at fault, so the answer is a 400 naming the sizes.
        final long end = region.offset() + offset + byteSize;
        final long objectSize = region.objectSize();
        if (objectSize < end)
        {
            region.release();
            throw invalid("shared memory object '" + shown(region.key()) + "' of region '" + shown(regionName)
                + "' is now " + objectSize + " bytes: tensor '" + shown(tensor) + "' needs bytes up to " + end
                + " (the object was truncated after it was registered; register it again)");
        }
        return new ShmSlice(region, offset, byteSize, region.slice(offset, byteSize));
    }

    /** Unregisters every region (regions in use go when their requests complete). */
    @Override
    public void close()
    {
        retireAll();
    }

    private Path resolveKey(final String name, final String key)
    {
        if (key == null)
        {
            throw invalid("shared memory region '" + shown(name) + "' needs a 'key'");
        }
        int start = 0;
        while (start < key.length() && key.charAt(start) == '/')
        {
            start++;
        }
        final String object = key.substring(start);
        // Triton's texts (server src/common.cc ValidateSharedMemoryKey).
        if (object.isEmpty())
        {
            throw invalid("cannot register shared memory region '" + shown(name) + "' - invalid shm key '"
                + shown(key) + "'");
        }
        if (object.startsWith(RESERVED_KEY_PREFIX))
        {
            throw invalid("cannot register shared memory region '" + shown(name) + "' with key '" + shown(key)
                + "' as the key contains the reserved prefix '" + RESERVED_KEY_PREFIX + "'");
        }
        if (object.startsWith(IpcRegion.FILE_PREFIX))
        {
            throw invalid(unableToOpen(name, key, "'" + IpcRegion.FILE_PREFIX + "' names Ingot's own IPC region "
                + "files, which hold other clients' tensors and are private to the IPC transport"));
        }
        // A POSIX shm name has no further '/': refusing it also keeps keys from escaping /dev/shm.
        if (object.indexOf('/') >= 0 || object.indexOf('\0') >= 0 || object.equals(".") || object.equals(".."))
        {
            throw invalid("shared memory key '" + shown(key) + "' of region '" + shown(name)
                + "' is not a POSIX shared memory name (one leading '/', then no '/')");
        }
        return root.resolve(object);
    }

    private static SharedMemoryRegion map(final String name, final String key, final Path file, final long offset,
        final long byteSize)
    {
        refuseSpecialFiles(name, key, file);
        final int fd = open(name, key, file);
        Arena arena = null;
        try
        {
            final Posix.FileStatus status = Posix.fstat(fd);
            if (!status.isRegularFile())
            {
                throw invalid(unableToOpen(name, key, "it is " + status.typeName() + ", not a shared memory object"));
            }
            final int serverUser = Posix.geteuid();
            if (status.uid() != serverUser)
            {
                throw invalid(unableToOpen(name, key, "the object is owned by user " + Integer.toUnsignedString(
                    status.uid()) + ", not by the user this server runs as (" + Integer.toUnsignedString(serverUser)
                    + "); only objects the server's own user created can be registered"));
            }
            if (isIpcRegion(fd))
            {
                throw invalid(unableToOpen(name, key, "it is an Ingot IPC region (its header is \"INGOTIPC\"), "
                    + "which holds other clients' tensors and is private to the IPC transport"));
            }
            final long objectSize = status.size();
            if (offset > objectSize || byteSize > objectSize - offset)
            {
                throw invalid("failed to register shared memory region '" + shown(name) + "': invalid args "
                    + "(offset " + offset + " + byte_size " + byteSize + " exceeds the " + objectSize
                    + " bytes of shared memory object '" + shown(key) + "')");
            }
            arena = Arena.ofShared();
            final MemorySegment memory = Posix.mapShared(fd, offset, byteSize, arena);
            return new SharedMemoryRegion(name, key, offset, byteSize, arena, memory, fd);
        }
        catch (final PosixException failure)
        {
            closeQuietly(arena, fd);
            throw invalid("Unable to map shared memory region '" + shown(name) + "' (key '" + shown(key) + "'): "
                + failure.getMessage());
        }
        catch (final RuntimeException refused)
        {
            closeQuietly(arena, fd);
            throw refused;
        }
    }

    /**
     * Refuses a path that is not a regular file before opening it, so that the server never opens a FIFO or a
     * device on a client's behalf. What is opened is checked again with {@code fstat}, which is authoritative.
     */
    private static void refuseSpecialFiles(final String name, final String key, final Path file)
    {
        final BasicFileAttributes attributes;
        try
        {
            attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        }
        catch (final NoSuchFileException missing)
        {
            throw invalid(unableToOpen(name, key, "no shared memory object has this key"));
        }
        catch (final IOException failure)
        {
            throw invalid(unableToOpen(name, key, String.valueOf(failure.getMessage())));
        }
        if (attributes.isSymbolicLink())
        {
            throw invalid(unableToOpen(name, key, "it is a symbolic link; shared memory objects are opened without "
                + "following links, as shm_open opens them"));
        }
        if (!attributes.isRegularFile())
        {
            throw invalid(unableToOpen(name, key, "it is " + (attributes.isDirectory() ? "a directory" : "not a "
                + "regular file") + ", not a shared memory object"));
        }
    }

    private static int open(final String name, final String key, final Path file)
    {
        try
        {
            return Posix.open(file.toString(), OPEN_FLAGS);
        }
        catch (final PosixException failure)
        {
            final String reason = switch (failure.errno())
            {
                case Posix.ENOENT -> "no shared memory object has this key";
                case Posix.ELOOP -> "it is a symbolic link; shared memory objects are opened without following "
                    + "links, as shm_open opens them";
                case Posix.EACCES, Posix.EPERM -> "permission denied";
                default -> failure.getMessage();
            };
            throw invalid(unableToOpen(name, key, reason));
        }
    }

    private static boolean isIpcRegion(final int fd)
    {
        final byte[] head = Posix.pread(fd, HeaderDescriptor.MAGIC_OFFSET, Long.BYTES);
        return head.length == Long.BYTES
            && ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getLong() == HeaderDescriptor.MAGIC;
    }

    private static void closeQuietly(final Arena arena, final int fd)
    {
        if (arena != null)
        {
            arena.close();
        }
        try
        {
            Posix.close(fd);
        }
        catch (final PosixException ignored)
        {
            // Nothing more can be done with a descriptor that does not close.
        }
    }

    private static String unableToOpen(final String name, final String key, final String reason)
    {
        return "Unable to open shared memory region '" + shown(name) + "' with key '" + shown(key) + "': " + reason;
    }

    private static String shown(final String text)
    {
        return ClientText.name(text);
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
