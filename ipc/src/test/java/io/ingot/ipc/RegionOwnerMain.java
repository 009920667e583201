package io.ingot.ipc;

/** Child process of {@link IpcRegionTest}: creates a region, says so, and holds it until killed. */
public final class RegionOwnerMain
{
    private RegionOwnerMain()
    {
    }

    /**
     * @param args the IPC name
     * @throws Exception never expected
     */
    public static void main(final String[] args) throws Exception
    {
        final IpcRegion region = IpcRegion.create(args[0], IpcRegionTest.smallLayout(), ProcessIdentity.current());
        System.out.println("READY " + ProcessHandle.current().pid() + " " + region.header().generation());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
