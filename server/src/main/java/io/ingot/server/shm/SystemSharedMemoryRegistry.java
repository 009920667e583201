package io.ingot.server.shm;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The system shared-memory regions clients registered (Triton's system shared-memory extension): POSIX
 * shared-memory objects, opened by key under {@code /dev/shm} and mapped with {@link FileChannel#map}. Requests
 * reference a region by name, offset and size, and the server reads inputs from and writes outputs to it in place.
 *
 * <p>Unregistering a region that requests still use succeeds at once: the name is free immediately, new requests no
 * longer find it, and the mapping is released when the last of those requests completes.
 *
 * <p>Thread-safe: both frontends share one registry.
 */
public final class SystemSharedMemoryRegistry implements AutoCloseable
{
    /** Key prefix Triton reserves for its Python backend; refused as Triton does. */
    public static final String RESERVED_KEY_PREFIX = "triton_python_backend_shm_region_";

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
        if (!enabled)
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED, "Client shared memory is disabled on this server; "
                + "start it with client shared memory allowed to register region '" + name + "'");
        }
        if (name == null || name.isEmpty())
        {
            throw invalid("a shared memory region needs a non-empty name");
        }
        final Path file = resolveKey(name, key);
        if (offset < 0 || byteSize <= 0)
        {
            throw invalid("invalid args for shared memory region '" + name + "': offset " + Long.toUnsignedString(offset)
                + " and byte_size " + Long.toUnsignedString(byteSize) + " must be non-negative and positive");
        }
        if (regions.containsKey(name))
        {
            throw new InferenceException(ErrorCode.ALREADY_EXISTS, "shared memory region '" + name
                + "' already in manager");
        }
        final SharedMemoryRegion region = map(name, key, file, offset, byteSize);
        if (regions.putIfAbsent(name, region) != null)
        {
            region.retire();
            throw new InferenceException(ErrorCode.ALREADY_EXISTS, "shared memory region '" + name
                + "' already in manager");
        }
    }

    /**
     * Unregisters one region; an unknown name is not an error (as in Triton). Requests holding it finish normally.
     *
     * @param name the region name
     */
    public void unregister(final String name)
    {
        final SharedMemoryRegion region = regions.remove(name);
        if (region != null)
        {
            region.retire();
        }
    }

    /** Unregisters every region. */
    public void unregisterAll()
    {
        for (final String name : List.copyOf(regions.keySet()))
        {
            unregister(name);
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
                    + name + "'");
            }
            return List.of(region);
        }
        final List<SharedMemoryRegion> all = new ArrayList<>(regions.values());
        all.sort(Comparator.comparing(SharedMemoryRegion::name));
        return all;
    }

    /**
     * Holds part of a region for one tensor of one request, after checking that it lies inside the region.
     *
     * @param regionName the region the request names
     * @param offset     offset inside the region
     * @param byteSize   bytes the tensor may use
     * @param tensor     the tensor's name, for messages
     * @return the held slice; release it when the response was delivered
     * @throws InferenceException INVALID_ARG for an unknown region or a range outside it
     */
    public ShmSlice acquire(final String regionName, final long offset, final long byteSize, final String tensor)
    {
        final SharedMemoryRegion region = regions.get(regionName);
        if (region == null || !region.tryAcquire())
        {
            throw invalid("Unable to find shared memory region: '" + regionName + "' (referenced by tensor '"
                + tensor + "')");
        }
        if (offset < 0 || byteSize < 0 || offset > region.byteSize() || byteSize > region.byteSize() - offset)
        {
            region.release();
            throw invalid("shared memory reference of tensor '" + tensor + "' is out of bounds: offset "
                + Long.toUnsignedString(offset) + " + byte_size " + Long.toUnsignedString(byteSize) + " exceeds the "
                + region.byteSize() + " bytes of region '" + regionName + "'");
        }
        return new ShmSlice(region, offset, byteSize, region.slice(offset, byteSize));
    }

    /** Unregisters every region (mappings in use are released when their requests complete). */
    @Override
    public void close()
    {
        unregisterAll();
    }

    private Path resolveKey(final String name, final String key)
    {
        if (key == null)
        {
            throw invalid("shared memory region '" + name + "' needs a 'key'");
        }
        int start = 0;
        while (start < key.length() && key.charAt(start) == '/')
        {
            start++;
        }
        final String object = key.substring(start);
        if (object.isEmpty())
        {
            throw invalid("shared memory key '" + key + "' of region '" + name + "' names no object");
        }
        if (object.startsWith(RESERVED_KEY_PREFIX))
        {
            throw invalid("shared memory key '" + key + "' of region '" + name + "' uses the reserved prefix '"
                + RESERVED_KEY_PREFIX + "'");
        }
        // A POSIX shm name has no further '/': refusing it also keeps keys from escaping /dev/shm.
        if (object.indexOf('/') >= 0 || object.indexOf('\0') >= 0 || object.equals(".") || object.equals(".."))
        {
            throw invalid("shared memory key '" + key + "' of region '" + name
                + "' is not a POSIX shared memory name (one leading '/', then no '/')");
        }
        return root.resolve(object);
    }

    private static SharedMemoryRegion map(final String name, final String key, final Path file, final long offset,
        final long byteSize)
    {
        final Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final long objectSize = channel.size();
            if (offset > objectSize || byteSize > objectSize - offset)
            {
                throw invalid("invalid args for shared memory region '" + name + "': offset " + offset
                    + " + byte_size " + byteSize + " exceeds the " + objectSize + " bytes of shared memory object '"
                    + key + "'");
            }
            final MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, offset, byteSize, arena);
            return new SharedMemoryRegion(name, key, offset, byteSize, arena, memory);
        }
        catch (final NoSuchFileException missing)
        {
            arena.close();
            throw invalid("Unable to open shared memory region '" + name + "': no shared memory object with key '"
                + key + "'");
        }
        catch (final AccessDeniedException denied)
        {
            arena.close();
            throw invalid("Unable to open shared memory region '" + name + "': permission denied for key '" + key
                + "'");
        }
        catch (final IOException failure)
        {
            arena.close();
            throw invalid("Unable to map shared memory region '" + name + "' (key '" + key + "'): "
                + failure.getMessage());
        }
        catch (final InferenceException refused)
        {
            arena.close();
            throw refused;
        }
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
