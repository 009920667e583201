package io.ingot.ipc;

import io.ingot.testing.ChildProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.*;

class IpcRegionTest
{
    private final String name = "test-region-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<IpcRegion> regions = new ArrayList<>();

    static IpcLayout smallLayout()
    {
        return new IpcLayout(2, 256 << 10, 128 << 10, 128 << 10, IpcLayout.minResponseRingCapacity(4), 4, 50, 1000);
    }

    private IpcRegion create()
    {
        final IpcRegion region = IpcRegion.create(name, smallLayout(), ProcessIdentity.current());
        regions.add(region);
        return region;
    }

    @AfterEach
    void cleanUp() throws IOException
    {
        for (final IpcRegion region : regions)
        {
            region.close();
        }
        Files.deleteIfExists(IpcRegion.pathOf(name));
    }

    @Test
    void aNewRegionIsPrivateInitialisedAndOpenable() throws IOException
    {
        final IpcRegion region = create();
        final Path path = Path.of("/dev/shm", "ingot-" + name);
        assertEquals(path, region.path());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
        assertEquals(smallLayout().fileLength(), Files.size(path));
        assertEquals(1, region.header().generation());
        assertEquals(HeaderDescriptor.SERVER_RUNNING, region.header().serverState());
        assertEquals(ProcessHandle.current().pid(), region.header().serverPid());
        try (IpcRegion client = IpcRegion.open(name))
        {
            assertEquals(region.layout(), client.layout());
            assertTrue(client.isAtPath());
            region.header().serverHeartbeat(77);
            assertEquals(77, client.header().serverHeartbeat(), "both map the same memory");
        }
        try (var files = Files.list(path.getParent()))
        {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith(".ingot-" + name)),
                "no temporary file is left behind");
        }
    }

    @Test
    void aSecondServerOnALiveNameIsRefused()
    {
        create();
        final IpcNameInUseException ex = assertThrows(IpcNameInUseException.class, this::create);
        assertEquals(ProcessHandle.current().pid(), ex.ownerPid());
        assertTrue(ex.getMessage().contains("'" + name + "' is in use") && ex.getMessage().contains("pid "
            + ProcessHandle.current().pid()), ex.getMessage());
    }

    @Test
    void aClosedRegionIsReplacedWithTheNextGeneration()
    {
        final IpcRegion old = create();
        old.header().serverState(HeaderDescriptor.SERVER_CLOSED);
        final IpcRegion replacement = create();
        assertEquals(2, replacement.header().generation());
        assertFalse(old.isAtPath(), "the old file was unlinked");
        assertTrue(replacement.isAtPath());
        assertEquals(2, old.replacementGeneration(), "a client of the old region sees the restart");
        assertEquals(HeaderDescriptor.SERVER_CLOSED, old.header().serverState(), "old mappings stay valid");
    }

    @Test
    void aRegionWhoseServerWasKilledIsReplaced() throws Exception
    {
        try (ChildProcess owner = ChildProcess.start(RegionOwnerMain.class, name))
        {
            final String ready = owner.awaitLine("READY", 60);
            final long pid = Long.parseLong(ready.split(" ")[1]);
            final IpcNameInUseException live = assertThrows(IpcNameInUseException.class, this::create);
            assertEquals(pid, live.ownerPid(), "the other process is named");
            owner.kill();
        }
        final IpcRegion replacement = create();
        assertEquals(2, replacement.header().generation(), "one more than the killed server's");
    }

    @Test
    void filesThatAreNotRegionsOfThisVersionAreLeftAlone() throws IOException
    {
        final Path path = IpcRegion.pathOf(name);
        Files.write(path, new byte[8192]);
        final IpcRegionFormatException notIngot = assertThrows(IpcRegionFormatException.class, this::create);
        assertTrue(notIngot.getMessage().contains("is not an Ingot IPC region"), notIngot.getMessage());
        assertEquals(8192, Files.size(path), "untouched");

        Files.delete(path);
        final IpcRegion region = create();
        region.memory().set(SharedMemory.INT, HeaderDescriptor.LAYOUT_VERSION_OFFSET, 7);
        final IpcRegionFormatException version = assertThrows(IpcRegionFormatException.class, this::create);
        assertTrue(version.getMessage().contains("layout version 7"), version.getMessage());
        final IpcRegionFormatException clientView = assertThrows(IpcRegionFormatException.class,
            () -> IpcRegion.open(name));
        assertTrue(clientView.getMessage().contains("layout version 7"), clientView.getMessage());
    }

    @Test
    void clientsGetSpecificErrorsForMissingAndClosedServers()
    {
        final IpcServerNotFoundException missing = assertThrows(IpcServerNotFoundException.class,
            () -> IpcRegion.open(name));
        assertTrue(missing.getMessage().contains("no Ingot IPC server named '" + name + "'"), missing.getMessage());
        create().header().serverState(HeaderDescriptor.SERVER_CLOSED);
        final IpcServerGoneException closed = assertThrows(IpcServerGoneException.class, () -> IpcRegion.open(name));
        assertFalse(closed.restarted());
    }

    @Test
    void namesAreChecked()
    {
        for (final String bad : new String[] {"", "-x", ".hidden", "a/b", "a b", "x".repeat(65), null})
        {
            assertThrows(IllegalArgumentException.class, () -> IpcRegion.pathOf(bad), "name " + bad);
        }
        assertDoesNotThrow(() -> IpcRegion.pathOf("Model_1.v2-x"));
    }
}
