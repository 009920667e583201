package io.ingot.ipc;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserPrincipal;
import java.util.Objects;

/**
 * A region file found where a server wants to create its own, whose server is gone (docs/ipc.md, "The file"):
 * {@link #inspect} tells it from a live server's region (the name is in use), from another user's file and from
 * anything that is not an Ingot region of this layout version (all refused, and left alone), and {@link #remove}
 * deletes it under the replace lock, so that of two servers replacing it at once one wins.
 *
 * @param generation the stale region's generation (the new one's is higher)
 * @param fileKey    the identity of the stale file, so that a file that replaced it meanwhile is not removed
 */
record StaleRegion(long generation, Object fileKey)
{
    /**
     * Judges the file at a region's path.
     *
     * @param name the IPC name, for messages
     * @param path the region file's path, where a file exists
     * @return the region found, whose server is gone
     * @throws IpcNameInUseException    when a live server owns it, or another user does
     * @throws IpcRegionFormatException when it is a link or not an Ingot region of this layout version
     * @throws IpcException             when it cannot be read
     */
    static StaleRegion inspect(final String name, final Path path)
    {
        if (Files.isSymbolicLink(path))
        {
            throw new IpcRegionFormatException(path + " is a symbolic link, not an Ingot IPC region; Ingot will not "
                + "follow or replace it");
        }
        try
        {
            final UserPrincipal owner = Files.getOwner(path, LinkOption.NOFOLLOW_LINKS);
            final UserPrincipal self = path.getFileSystem().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
            if (!owner.equals(self))
            {
                throw new IpcNameInUseException(path + " belongs to user " + owner.getName() + "; the IPC name '"
                    + name + "' is taken", 0);
            }
        }
        catch (final IOException | UnsupportedOperationException ignored)
        {
            // Ownership cannot be checked here; the header decides.
        }
        final Object fileKey = IpcRegion.fileKeyOf(path);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            Arena peek = Arena.ofConfined())
        {
            final long size = channel.size();
            if (size < HeaderDescriptor.HEADER_LENGTH)
            {
                throw new IpcRegionFormatException(path + " exists but is not an Ingot IPC region (" + size
                    + " bytes); remove it if nothing uses it");
            }
            final MemorySegment head = channel.map(FileChannel.MapMode.READ_ONLY, 0, HeaderDescriptor.HEADER_LENGTH,
                peek);
            final long magic = head.get(SharedMemory.LONG, HeaderDescriptor.MAGIC_OFFSET);
            if (magic != HeaderDescriptor.MAGIC)
            {
                throw new IpcRegionFormatException(path + " exists but is not an Ingot IPC region (magic 0x"
                    + Long.toHexString(magic) + "); remove it if nothing uses it");
            }
            final int version = head.get(SharedMemory.INT, HeaderDescriptor.LAYOUT_VERSION_OFFSET);
            if (version != HeaderDescriptor.LAYOUT_VERSION)
            {
                throw new IpcRegionFormatException(path + " is an Ingot IPC region of layout version " + version
                    + "; this Ingot writes version " + HeaderDescriptor.LAYOUT_VERSION + ". Stop the server that "
                    + "owns it, or remove the file if it is stale");
            }
            final HeaderFlyweight header = new HeaderFlyweight().wrap(head);
            final long generation = header.generation();
            if (header.serverState() == HeaderDescriptor.SERVER_CLOSED)
            {
                return new StaleRegion(generation, fileKey);
            }
            final long pid = header.serverPid();
            switch (ProcessIdentity.probe(pid, header.serverStartTicks(), header.serverPidNamespace()))
            {
                case ALIVE -> throw inUse(name, path, pid);
                case GONE ->
                {
                    return new StaleRegion(generation, fileKey);
                }
                case UNKNOWN ->
                {
                    final long interval = Math.clamp(
                        head.get(SharedMemory.LONG, HeaderDescriptor.HEARTBEAT_INTERVAL_OFFSET), 1, 1000);
                    if (heartbeatMoves(header, 3 * interval))
                    {
                        throw inUse(name, path, pid);
                    }
                    return new StaleRegion(generation, fileKey);
                }
                default -> throw new IllegalStateException();
            }
        }
        catch (final IOException ex)
        {
            throw new IpcException("cannot inspect " + path + ": " + ex.getMessage(), ex);
        }
    }

    private static IpcNameInUseException inUse(final String name, final Path path, final long pid)
    {
        return new IpcNameInUseException("the IPC name '" + name + "' is in use: a live Ingot server (pid " + pid
            + ") serves " + path + "; stop it or choose another name", pid);
    }

    private static boolean heartbeatMoves(final HeaderFlyweight header, final long waitMs)
    {
        final long first = header.serverHeartbeat();
        final long deadline = System.nanoTime() + waitMs * 1_000_000L;
        while (System.nanoTime() < deadline)
        {
            if (header.serverHeartbeat() != first)
            {
                return true;
            }
            try
            {
                Thread.sleep(Math.max(1, waitMs / 20));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return true;
            }
        }
        return header.serverHeartbeat() != first;
    }

    /**
     * Removes the stale file, unless a competing server already replaced it.
     *
     * @param path the region file's path
     * @throws IpcException when it cannot be removed
     */
    void remove(final Path path)
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
            FileLock ignored = channel.lock(HeaderDescriptor.REPLACE_LOCK_OFFSET, 1, false))
        {
            // Under the lock, a competing server that already replaced the file makes the keys differ.
            if (Objects.equals(fileKey, IpcRegion.fileKeyOf(path)))
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final NoSuchFileException ex)
        {
            // Someone else removed it first; the caller looks again.
        }
        catch (final IOException ex)
        {
            throw new IpcException("cannot replace the stale region " + path + ": " + ex.getMessage(), ex);
        }
    }
}
