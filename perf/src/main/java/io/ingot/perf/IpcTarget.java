package io.ingot.perf;

import io.ingot.ipc.IpcCapacityException;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcException;
import io.ingot.ipc.IpcServerNotFoundException;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * An Ingot server's shared-memory transport ({@code docs/ipc.md}): requests go through {@code /dev/shm/ingot-NAME}
 * with the Java {@link IpcClient}. Each {@link LoadClient} owns one connection, which is one of the server's client
 * slots ({@link #maxClients()}): its input tensors are allocated in the connection's slab and written once, and each
 * request submits the same INFER frame, waits for the response and closes it (which releases the outputs' space).
 * Connections go back to a pool when their client closes, so later load levels reuse them.
 *
 * <p>The IPC protocol has no metadata or statistics request: the model's shape and the server's counters come from a
 * {@link ModelSource} that reaches the same server another way (its HTTP endpoint, or the core itself when it runs in
 * this process). One request is sent over IPC by {@link #prepare} to check that the IPC server serves the model too.
 */
public final class IpcTarget implements LoadTarget
{
    /** How long one request may take before it counts as failed. */
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(60);
    /** Reads nothing: the load loop only wants the outcome. */
    private static final ResponseReader IGNORE = response ->
    {
    };

    /** Looks at a successful response before its outputs are released. */
    @FunctionalInterface
    interface ResponseReader
    {
        /**
         * @param response the response, open
         */
        void read(IpcResponse response);
    }

    private final String name;
    private final String model;
    private final long version;
    private final ModelSource metadata;
    private final AutoCloseable ownedMetadata;
    private final int maxClients;
    /** Connections no client holds; guards itself, {@link #connections} and {@link #closed}. */
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private final List<Connection> connections = new ArrayList<>();
    private boolean closed;
    private volatile RequestInputs inputs;

    /**
     * Connects to an IPC server; its first connection also checks that the server is there.
     *
     * @param name     the IPC name the server was started with ({@code ingot serve --ipc NAME})
     * @param model    the model
     * @param version  its version, {@code ""} for the default
     * @param metadata where the model's metadata and the server's counters come from; not closed by this target
     * @throws PerfException (usage) for a malformed name or version; (failure) when no server serves the name
     */
    public IpcTarget(final String name, final String model, final String version, final ModelSource metadata)
    {
        this(name, model, version, metadata, null);
    }

    private IpcTarget(final String name, final String model, final String version, final ModelSource metadata,
        final AutoCloseable ownedMetadata)
    {
        this.name = name;
        this.model = model;
        this.version = parseVersion(version);
        this.metadata = metadata;
        this.ownedMetadata = ownedMetadata;
        final Connection first = connect();
        this.maxClients = first.client.layout().maxClients();
        idle.add(first);
    }

    /**
     * The target of {@code ingot perf -i ipc}: the model's metadata and the server's statistics are read from the
     * same server's HTTP endpoint, which this target closes with itself.
     *
     * @param name        the IPC name
     * @param metadataUrl {@code host:port} of the server's HTTP endpoint
     * @param model       the model
     * @param version     its version, {@code ""} for the default
     * @return the target
     * @throws PerfException (usage) for a malformed name, URL or version; (failure) when no server serves the name
     */
    public static IpcTarget withHttpMetadata(final String name, final String metadataUrl, final String model,
        final String version)
    {
        final HttpTarget http = new HttpTarget(metadataUrl, model, version);
        try
        {
            return new IpcTarget(name, model, version, new HttpMetadata(http), http);
        }
        catch (final RuntimeException ex)
        {
            http.close();
            throw ex;
        }
    }

    /** The HTTP endpoint as the metadata of an IPC target: its failures say why perf asked HTTP at all. */
    private record HttpMetadata(HttpTarget http) implements ModelSource
    {
        private static final String WHY = "-i ipc reads the model's metadata and statistics over HTTP"
            + " (--metadata-url): ";

        @Override
        public ModelInfo modelInfo()
        {
            return explained(http::modelInfo);
        }

        @Override
        public ServerCounters counters()
        {
            return explained(http::counters);
        }

        private static <T> T explained(final Supplier<T> read)
        {
            try
            {
                return read.get();
            }
            catch (final PerfException ex)
            {
                throw PerfException.failure(WHY + ex.getMessage(), ex);
            }
        }
    }

    private static long parseVersion(final String version)
    {
        if (version.isEmpty())
        {
            return -1;
        }
        if (!version.chars().allMatch(Character::isDigit))
        {
            throw PerfException.usage("-x/--model-version must be a whole number, got '" + version + "'");
        }
        try
        {
            return Long.parseLong(version);
        }
        catch (final NumberFormatException ex)
        {
            throw PerfException.usage("-x/--model-version " + version + " is too large");
        }
    }

    private Connection connect()
    {
        final IpcClient client;
        try
        {
            client = IpcClient.connect(name);
        }
        catch (final IllegalArgumentException ex)
        {
            throw PerfException.usage("-u/--url for -i ipc is the server's IPC name: " + ex.getMessage());
        }
        catch (final IpcServerNotFoundException ex)
        {
            throw PerfException.failure("cannot reach the IPC server: " + ex.getMessage(), ex);
        }
        catch (final IpcCapacityException ex)
        {
            throw PerfException.failure("cannot open another IPC connection (perf takes one client slot per request"
                + " in flight): " + ex.getMessage(), ex);
        }
        catch (final IpcException ex)
        {
            throw PerfException.failure("cannot connect to the IPC server '" + name + "': " + ex.getMessage(), ex);
        }
        final Connection connection = new Connection(client);
        synchronized (idle)
        {
            connections.add(connection);
        }
        return connection;
    }

    @Override
    public String describe()
    {
        return "IPC " + name;
    }

    @Override
    public ModelInfo modelInfo()
    {
        return metadata.modelInfo();
    }

    @Override
    public ServerCounters counters()
    {
        return metadata.counters();
    }

    /**
     * Fixes the request and sends it once over IPC, so that a server that does not serve the model is reported now
     * rather than as a level of failed requests.
     *
     * @throws PerfException (usage) when the inputs do not fit a client's slab; (failure) when the server answers
     *                       the request with an error
     */
    @Override
    public void prepare(final RequestInputs requestInputs)
    {
        this.inputs = requestInputs;
        final Connection first;
        synchronized (idle)
        {
            first = idle.peek();
        }
        first.load(requestInputs);
        final String error = first.exchange(IGNORE);
        if (error != null)
        {
            throw PerfException.failure("model '" + model + "' over IPC '" + name + "': " + error);
        }
    }

    @Override
    public LoadClient newClient()
    {
        return client();
    }

    /**
     * @return a client like {@link #newClient()}, with the IPC-specific {@link Client#call(ResponseReader)}
     */
    Client client()
    {
        final RequestInputs prepared = inputs;
        if (prepared == null)
        {
            throw new IllegalStateException("prepare() must be called before clients are made");
        }
        synchronized (idle)
        {
            if (closed)
            {
                throw new IllegalStateException("IPC target '" + name + "' is closed");
            }
            final Connection pooled = idle.poll();
            if (pooled != null)
            {
                return new Client(pooled);
            }
        }
        final Connection connection = connect();
        connection.load(prepared);
        return new Client(connection);
    }

    @Override
    public int maxClients()
    {
        return maxClients;
    }

    @Override
    public void close()
    {
        synchronized (idle)
        {
            closed = true;
            connections.forEach(Connection::close);
            connections.clear();
            idle.clear();
        }
        if (ownedMetadata != null)
        {
            try
            {
                ownedMetadata.close();
            }
            catch (final Exception ex)
            {
                throw PerfException.failure("cannot close the metadata endpoint: " + ex.getMessage(), ex);
            }
        }
    }

    private void giveBack(final Connection connection)
    {
        synchronized (idle)
        {
            if (!closed && connection.settled)
            {
                idle.push(connection);
                return;
            }
            connections.remove(connection);
        }
        connection.close();
    }

    /** One IPC connection (a client slot) with its request: inputs written once in its slab. */
    private final class Connection
    {
        private final IpcClient client;
        private IpcRequest request;
        /** False while a response is outstanding: a connection that lost one cannot be reused. */
        private volatile boolean settled = true;

        Connection(final IpcClient client)
        {
            this.client = client;
        }

        void load(final RequestInputs requestInputs)
        {
            final IpcRequest prepared = new IpcRequest(model).version(version);
            for (final RequestInputs.Tensor tensor : requestInputs.inputs())
            {
                final byte[] bytes = tensor.data();
                final IpcTensor slab;
                try
                {
                    slab = client.allocate(IpcDataType.fromCode(tensor.dataType().configNumber()), tensor.shape(),
                        bytes.length);
                }
                catch (final IpcCapacityException ex)
                {
                    throw PerfException.usage("input '" + tensor.name() + "' (" + bytes.length + " bytes) does not fit"
                        + " the input area of an IPC client slot of '" + name + "' (the server's slabInputBytes): "
                        + ex.getMessage());
                }
                MemorySegment.copy(MemorySegment.ofArray(bytes), 0, slab.segment(), 0, bytes.length);
                prepared.addInput(tensor.name(), slab);
            }
            requestInputs.outputs().forEach(prepared::requestOutput);
            request = prepared;
        }

        long submit()
        {
            final long id = client.submit(request);
            settled = false;
            return id;
        }

        /** Sends the request and waits for its outcome: {@code null}, or what went wrong. */
        String exchange(final ResponseReader reader)
        {
            final long id;
            try
            {
                id = submit();
            }
            catch (final IpcException ex)
            {
                return "IPC '" + name + "': " + ex.getMessage();
            }
            return outcome(id, reader);
        }

        String outcome(final long id, final ResponseReader reader)
        {
            try (IpcResponse response = client.await(id, RESPONSE_TIMEOUT))
            {
                settled = true;
                if (!response.isOk())
                {
                    return IpcStatus.name(response.status()) + ": " + response.message();
                }
                reader.read(response);
                return null;
            }
            catch (final IpcException ex)
            {
                return "IPC '" + name + "': " + ex.getMessage();
            }
        }

        void close()
        {
            client.close();
        }
    }

    /**
     * A load client over one connection. {@link #send} submits on the calling thread and waits for the response on
     * a virtual thread of its own (the IPC client has no completion callback); the next {@code send} comes only
     * after the sink was called, so one thread at a time uses the connection.
     */
    final class Client implements LoadClient
    {
        private final Connection connection;
        private boolean released;

        Client(final Connection connection)
        {
            this.connection = connection;
        }

        @Override
        public String call() throws InterruptedException
        {
            return call(IGNORE);
        }

        /**
         * Sends the request and waits for its response, which {@code reader} sees before it is released.
         *
         * @param reader looks at a successful response
         * @return {@code null} on success, else what went wrong
         * @throws InterruptedException when the thread was interrupted meanwhile (after the response arrived)
         */
        String call(final ResponseReader reader) throws InterruptedException
        {
            final String error = connection.exchange(reader);
            if (Thread.interrupted())
            {
                throw new InterruptedException("interrupted while waiting for an IPC response");
            }
            return error;
        }

        @Override
        public void send(final Sink sink)
        {
            final long id;
            try
            {
                id = connection.submit();
            }
            catch (final IpcException ex)
            {
                sink.completed("IPC '" + name + "': " + ex.getMessage());
                return;
            }
            Thread.ofVirtual().name("perf-ipc-response").start(() -> sink.completed(connection.outcome(id, IGNORE)));
        }

        @Override
        public void close()
        {
            if (!released)
            {
                released = true;
                giveBack(connection);
            }
        }
    }
}
