package io.ingot.ipc;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * One mapped region file, {@code /dev/shm/ingot-NAME} (docs/ipc.md, "The file"): created by a server with
 * {@link #create}, opened by clients with {@link #open}. The whole file is one {@link MemorySegment} of a shared
 * {@link Arena}, valid until {@link #close()}.
 *
 * <p>Creation never exposes a half-written header: the file is built under a temporary name and hard-linked to its
 * final name, which fails if another server got there first. A file already at the path is inspected: one whose
 * server is alive makes creation fail with {@link IpcNameInUseException}; one whose server is gone is replaced, and
 * the new region's generation is one more than the old one's; anything that is not an Ingot region of this layout
 * version is left alone and reported ({@link StaleRegion} judges what is found).
 */
public final class IpcRegion implements AutoCloseable
{
    /** System property naming the directory of region files (default {@code /dev/shm}). */
    public static final String DIRECTORY_PROPERTY = "ingot.ipc.dir";
    /** Environment variable naming the directory of region files, used when the property is not set. */
    public static final String DIRECTORY_ENV = "INGOT_IPC_DIR";
    /** Prefix of region file names. */
    public static final String FILE_PREFIX = "ingot-";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final AtomicLong TEMP_COUNTER = new AtomicLong();
    private static final int CREATE_ATTEMPTS = 8;

    private final String name;
    private final Path path;
    private final FileChannel channel;
    private final Arena arena;
    private final MemorySegment memory;
    private final IpcLayout layout;
    private final Object fileKey;
    private final HeaderFlyweight header = new HeaderFlyweight();

    private IpcRegion(final String name, final Path path, final FileChannel channel, final Arena arena,
        final MemorySegment memory, final IpcLayout layout, final Object fileKey)
    {
        this.name = name;
        this.path = path;
        this.channel = channel;
        this.arena = arena;
        this.memory = memory;
        this.layout = layout;
        this.fileKey = fileKey;
        header.wrap(memory);
    }

    /**
     * @param name an IPC name
     * @return the path of its region file
     * @throws IllegalArgumentException when the name is not 1-64 characters of {@code [A-Za-z0-9._-]} starting
     *     with a letter or digit
     */
    public static Path pathOf(final String name)
    {
        if (name == null || !NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException("IPC name '" + name + "' is invalid: use 1 to 64 characters of "
                + "A-Z a-z 0-9 . _ -, starting with a letter or digit");
        }
        return directory().resolve(FILE_PREFIX + name);
    }

    /** @return the directory of region files. */
    public static Path directory()
    {
        final String property = System.getProperty(DIRECTORY_PROPERTY);
        if (property != null && !property.isBlank())
        {
            return Path.of(property);
        }
        final String env = System.getenv(DIRECTORY_ENV);
        return Path.of(env != null && !env.isBlank() ? env : "/dev/shm");
    }

    /**
     * Creates, maps and publishes a new region for a server, replacing the file of a server that is gone.
     *
     * @param name     the IPC name
     * @param layout   the sizes
     * @param identity the server process, recorded in the header
     * @return the mapped region, {@code server_state} RUNNING
     * @throws IpcNameInUseException     when a live server owns the name
     * @throws IpcRegionFormatException  when a file at the path is not an Ingot region of this layout version
     * @throws IpcCapacityException      when the directory lacks the space for the file
     * @throws IpcException              on any other I/O failure, naming the path
     */
    public static IpcRegion create(final String name, final IpcLayout layout, final ProcessIdentity identity)
    {
        final Path path = pathOf(name);
        final Path directory = path.getParent();
        checkSpace(directory, layout);
        long generation = 1;
        for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++)
        {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
            {
                final StaleRegion stale = StaleRegion.inspect(name, path);
                generation = Math.max(generation, stale.generation() + 1);
                stale.remove(path);
                continue;
            }
            final IpcRegion region = createAndLink(name, path, layout, identity, generation);
            if (region != null)
            {
                return region;
            }
        }
        throw new IpcException("could not create " + path + " after " + CREATE_ATTEMPTS + " attempts: other "
            + "processes keep creating and removing it");
    }

    /**
     * Maps the region of a running server, for a client.
     *
     * @param name the IPC name
     * @return the mapped region
     * @throws IpcServerNotFoundException when no file exists at the path
     * @throws IpcServerGoneException     when the server closed the region
     * @throws IpcRegionFormatException   when the file is not an Ingot region of this layout version
     */
    public static IpcRegion open(final String name)
    {
        final Path path = pathOf(name);
        final FileChannel channel;
        try
        {
            channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
        }
        catch (final NoSuchFileException ex)
        {
            throw new IpcServerNotFoundException("no Ingot IPC server named '" + name + "': " + path
                + " does not exist; start one with `ingot serve --ipc " + name + "` or IpcServer.start(core, \""
                + name + "\")");
        }
        catch (final AccessDeniedException ex)
        {
            throw new IpcException("cannot open " + path + ": permission denied; the region is private (mode 0600) "
                + "to the user who runs the server", ex);
        }
        catch (final IOException ex)
        {
            throw new IpcException("cannot open " + path + ": " + ex.getMessage(), ex);
        }
        Arena arena = null;
        try
        {
            final Object fileKey = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .fileKey();
            final long size = channel.size();
            final IpcLayout layout;
            try (Arena peek = Arena.ofConfined())
            {
                final MemorySegment head = channel.map(FileChannel.MapMode.READ_ONLY, 0,
                    Math.min(size, HeaderDescriptor.HEADER_LENGTH), peek);
                layout = IpcLayout.read(head, size, path.toString());
                if (new HeaderFlyweight().wrap(head).serverState() == HeaderDescriptor.SERVER_CLOSED)
                {
                    throw new IpcServerGoneException("the Ingot IPC server '" + name + "' has closed", false);
                }
            }
            arena = Arena.ofShared();
            final MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            return new IpcRegion(name, path, channel, arena, memory, layout, fileKey);
        }
        catch (final IOException ex)
        {
            closeQuietly(channel, arena);
            throw new IpcException("cannot map " + path + ": " + ex.getMessage(), ex);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(channel, arena);
            throw ex;
        }
    }

    /** @return the IPC name. */
    public String name()
    {
        return name;
    }

    /** @return the region file's path. */
    public Path path()
    {
        return path;
    }

    /** @return the whole mapping. */
    public MemorySegment memory()
    {
        return memory;
    }

    /** @return the sizes and offsets. */
    public IpcLayout layout()
    {
        return layout;
    }

    /** @return a flyweight over the header's server fields. */
    public HeaderFlyweight header()
    {
        return header;
    }

    /** @return the channel the region was mapped from, for record locks. */
    public FileChannel channel()
    {
        return channel;
    }

    /**
     * Takes an exclusive POSIX record lock on one byte of the file, waiting for it.
     *
     * @param position the byte ({@link HeaderDescriptor#REGISTRATION_LOCK_OFFSET}, ...)
     * @return the lock; release it promptly
     */
    public FileLock lock(final long position)
    {
        try
        {
            return channel.lock(position, 1, false);
        }
        catch (final IOException ex)
        {
            throw new IpcException("cannot lock byte " + position + " of " + path + ": " + ex.getMessage(), ex);
        }
    }

    /** @return whether the path still names this region's file (false once it was removed or replaced). */
    public boolean isAtPath()
    {
        return Objects.equals(fileKey, fileKeyOf(path));
    }

    /**
     * Removes the file if the path still names it, so that no new client can find it. Mapped memory stays valid
     * until {@link #close()}.
     */
    public void unlink()
    {
        try
        {
            if (isAtPath())
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            throw new IpcException("cannot remove " + path + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Looks at whatever file is now at this region's path, for a client that lost its server.
     *
     * @return the generation of a running Ingot region there that is not this one, or 0 when there is none
     */
    public long replacementGeneration()
    {
        final Object key = fileKeyOf(path);
        if (key == null || key.equals(fileKey))
        {
            return 0;
        }
        try (FileChannel other = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            Arena peek = Arena.ofConfined())
        {
            final long size = other.size();
            if (size < HeaderDescriptor.HEADER_LENGTH)
            {
                return 0;
            }
            final MemorySegment head = other.map(FileChannel.MapMode.READ_ONLY, 0, HeaderDescriptor.HEADER_LENGTH,
                peek);
            if (head.get(SharedMemory.LONG, HeaderDescriptor.MAGIC_OFFSET) != HeaderDescriptor.MAGIC)
            {
                return 0;
            }
            final HeaderFlyweight otherHeader = new HeaderFlyweight().wrap(head);
            return otherHeader.serverState() == HeaderDescriptor.SERVER_RUNNING ? otherHeader.generation() : 0;
        }
        catch (final IOException | RuntimeException ex)
        {
            return 0;
        }
    }

    /** Unmaps the region and closes its file; the memory must not be used afterwards. */
    @Override
    public void close()
    {
        closeQuietly(channel, arena);
    }

    private static IpcRegion createAndLink(final String name, final Path path, final IpcLayout layout,
        final ProcessIdentity identity, final long generation)
    {
        final Path temp = path.resolveSibling("." + path.getFileName() + "." + identity.pid() + "."
            + TEMP_COUNTER.incrementAndGet() + ".tmp");
        FileChannel channel = null;
        Arena arena = null;
        try
        {
            Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (RandomAccessFile file = new RandomAccessFile(temp.toFile(), "rw"))
            {
                file.setLength(layout.fileLength());
            }
            channel = FileChannel.open(temp, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
            arena = Arena.ofShared();
            final MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, layout.fileLength(), arena);
            layout.writeTo(memory);
            new HeaderFlyweight().wrap(memory)
                .generation(generation)
                .server(identity, System.currentTimeMillis())
                .serverHeartbeat(0)
                .serverState(HeaderDescriptor.SERVER_RUNNING);
            final Object fileKey = fileKeyOf(temp);
            try
            {
                Files.createLink(path, temp);
            }
            catch (final FileAlreadyExistsException ex)
            {
                closeQuietly(channel, arena);
                return null;
            }
            return new IpcRegion(name, path, channel, arena, memory, layout, fileKey);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            closeQuietly(channel, arena);
            throw new IpcException("cannot create " + path + ": " + ex.getMessage(), ex);
        }
        finally
        {
            try
            {
                Files.deleteIfExists(temp);
            }
            catch (final IOException ignored)
            {
                // The temporary name is private to this process; a leftover is harmless and named after our pid.
            }
        }
    }

    private static void checkSpace(final Path directory, final IpcLayout layout)
    {
        try
        {
            final long usable = Files.getFileStore(directory).getUsableSpace();
            if (usable < layout.fileLength())
            {
                throw new IpcCapacityException("the IPC region needs " + mib(layout.fileLength()) + " MiB but "
                    + directory + " has " + mib(usable) + " MiB free: enlarge it (Docker: --shm-size) or lower "
                    + "maxClients (" + layout.maxClients() + ") or slabBytes (" + layout.slabLength() + ")");
            }
        }
        catch (final NoSuchFileException ex)
        {
            throw new IpcException("the IPC directory " + directory + " does not exist; set -D"
                + DIRECTORY_PROPERTY + " or " + DIRECTORY_ENV + " to a tmpfs directory", ex);
        }
        catch (final IOException ex)
        {
            throw new IpcException("cannot check the free space of " + directory + ": " + ex.getMessage(), ex);
        }
    }

    private static long mib(final long bytes)
    {
        return (bytes + (1 << 20) - 1) >> 20;
    }

    /**
     * @param path a path
     * @return the identity of the file it names (not following a link), or {@code null} when there is none
     */
    static Object fileKeyOf(final Path path)
    {
        try
        {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    private static void closeQuietly(final FileChannel channel, final Arena arena)
    {
        if (arena != null)
        {
            try
            {
                arena.close();
            }
            catch (final IllegalStateException ignored)
            {
                // Already closed.
            }
        }
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // Nothing more can be done about a failing close of a mapped file.
            }
        }
    }
}
