package io.ingot.libc;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The libc file calls against real files: what registering a client's shared memory relies on. */
class PosixTest
{
    @BeforeAll
    static void linuxOnly()
    {
        assumeTrue(Posix.isAvailable(), Posix.unavailableReason());
    }

    @Test
    void openWithNoFollowRefusesASymbolicLinkWithEloop(@TempDir final Path dir) throws IOException
    {
        final Path target = Files.writeString(dir.resolve("target"), "secret");
        final Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        final PosixException refused = assertThrows(PosixException.class,
            () -> Posix.open(link.toString(), Posix.O_RDWR | Posix.O_NOFOLLOW | Posix.O_CLOEXEC));
        assertEquals(Posix.ELOOP, refused.errno());
        assertTrue(refused.getMessage().startsWith("open failed: ELOOP (40)"), refused.getMessage());
        final PosixException missing = assertThrows(PosixException.class,
            () -> Posix.open(dir.resolve("absent").toString(), Posix.O_RDONLY));
        assertEquals(Posix.ENOENT, missing.errno());
    }

    @Test
    void fstatReportsTypeOwnerSizeAndIdentityOfTheOpenFile(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.write(dir.resolve("object"), new byte[12345]);
        final int fd = Posix.open(file.toString(), Posix.O_RDWR | Posix.O_NOFOLLOW | Posix.O_CLOEXEC);
        try
        {
            final Posix.FileStatus status = Posix.fstat(fd);
            assertTrue(status.isRegularFile(), status.typeName());
            assertEquals(12345, status.size());
            assertEquals(Posix.geteuid(), status.uid());
            final Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            assertEquals("(dev=" + Long.toHexString(status.device()) + ",ino=" + status.inode() + ")",
                key.toString());
            assertEquals(12345, Posix.sizeOf(fd));
        }
        finally
        {
            Posix.close(fd);
        }
        final int directory = Posix.open(dir.toString(), Posix.O_RDONLY);
        try
        {
            final Posix.FileStatus status = Posix.fstat(directory);
            assertFalse(status.isRegularFile());
            assertEquals("a directory", status.typeName());
        }
        finally
        {
            Posix.close(directory);
        }
    }

    @Test
    void aMappingAtAnUnalignedOffsetSharesTheFileAndUnmapsWithItsArena(@TempDir final Path dir) throws IOException
    {
        final byte[] content = new byte[3 * 4096];
        for (int i = 0; i < content.length; i++)
        {
            content[i] = (byte) i;
        }
        final Path file = Files.write(dir.resolve("object"), content);
        final int fd = Posix.open(file.toString(), Posix.O_RDWR | Posix.O_CLOEXEC);
        try
        {
            final MemorySegment mapped;
            try (Arena arena = Arena.ofShared())
            {
                mapped = Posix.mapShared(fd, 5000, 100, arena);
                assertEquals(100, mapped.byteSize());
                assertEquals((byte) 5000, mapped.get(ValueLayout.JAVA_BYTE, 0));
                mapped.set(ValueLayout.JAVA_BYTE, 1, (byte) 77);
            }
            assertFalse(mapped.scope().isAlive());
            assertEquals(77, Files.readAllBytes(file)[5001]);
            assertArrayEquals(new byte[] {(byte) 5000, 77}, Posix.pread(fd, 5000, 2));
            assertEquals(0, Posix.pread(fd, content.length, 8).length);
        }
        finally
        {
            Posix.close(fd);
        }
    }

    @Test
    void anAnonymousMappingCostsOnlyTheTouchedPagesAndGoesWithItsArena() throws IOException
    {
        assumeTrue(Posix.isAvailable(), Posix.unavailableReason());
        final long length = 1L << 30;
        final long before = residentBytes();
        final MemorySegment reserved;
        try (Arena arena = Arena.ofShared())
        {
            reserved = Posix.mapAnonymous(length, arena);
            assertEquals(length, reserved.byteSize());
            reserved.set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
            reserved.set(ValueLayout.JAVA_BYTE, length - 1, (byte) 2);
            assertEquals(0, reserved.get(ValueLayout.JAVA_BYTE, length / 2), "untouched pages read as zero");
            assertEquals(2, reserved.get(ValueLayout.JAVA_BYTE, length - 1));
            // A GiB reserved, three pages touched: the process grew by far less than the reservation.
            assertTrue(residentBytes() - before < 256L << 20, "resident grew by " + (residentBytes() - before));
        }
        assertFalse(reserved.scope().isAlive(), "closing the arena unmaps it");
    }

    /** @return the process's resident set, from /proc/self/statm (pages times the page size) */
    private static long residentBytes() throws IOException
    {
        final String[] fields = Files.readString(Path.of("/proc/self/statm")).trim().split("\\s+");
        return Long.parseLong(fields[1]) * Posix.pageSize();
    }
}
