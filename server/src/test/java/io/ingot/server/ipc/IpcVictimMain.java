package io.ingot.server.ipc;

import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcTensor;

/**
 * Child process of the SIGKILL test: connects, submits {@code COUNT} requests to the slow model, prints
 * {@code SUBMITTED <slot>} and waits to be killed without ever reading a response.
 */
public final class IpcVictimMain
{
    private IpcVictimMain()
    {
    }

    /**
     * @param args IPC name, number of requests
     * @throws Exception never expected
     */
    public static void main(final String[] args) throws Exception
    {
        final IpcClient client = IpcClient.connect(args[0]);
        final IpcTensor input = client.allocate(IpcDataType.FP32, 16);
        for (int i = 0; i < Integer.parseInt(args[1]); i++)
        {
            client.submit(new IpcRequest("slow").addInput("INPUT0", input));
        }
        System.out.println("SUBMITTED " + client.slot());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
