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
}
