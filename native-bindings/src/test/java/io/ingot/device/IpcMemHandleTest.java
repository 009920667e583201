package io.ingot.device;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The 64-byte IPC handle value: validation, defensive copies, and the hex form passed between processes. */
class IpcMemHandleTest
{
    private static byte[] sample()
    {
        final byte[] bytes = new byte[IpcMemHandle.SIZE];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte) (i * 7 + 3);
        }
        return bytes;
    }

    @Test
    void aHandleHasExactly64Bytes()
    {
        assertEquals(64, IpcMemHandle.SIZE);
        final IllegalArgumentException error =
            assertThrows(IllegalArgumentException.class, () -> IpcMemHandle.of(new byte[63]));
        assertTrue(error.getMessage().contains("got 63"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> IpcMemHandle.fromHex("abcd"));
    }

    @Test
    void theHandleIsImmutable()
    {
        final byte[] bytes = sample();
        final IpcMemHandle handle = IpcMemHandle.of(bytes);
        bytes[0] = 99;
        assertEquals((byte) 3, handle.toBytes()[0]);
        handle.toBytes()[1] = 99;
        assertEquals((byte) 10, handle.toBytes()[1]);
    }

    @Test
    void hexAndNativeMemoryRoundTrip()
    {
        final IpcMemHandle handle = IpcMemHandle.of(sample());
        assertEquals(128, handle.toHex().length());
        assertEquals(handle, IpcMemHandle.fromHex(handle.toHex()));
        assertEquals(handle.hashCode(), IpcMemHandle.fromHex(handle.toHex()).hashCode());
        assertNotEquals(handle, IpcMemHandle.of(new byte[64]));
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(IpcMemHandle.SIZE);
            handle.write(memory);
            assertArrayEquals(sample(), IpcMemHandle.read(memory).toBytes());
        }
    }
}
