package io.ingot.server.grpc;

import io.grpc.stub.StreamObserver;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseStreamListener;
import io.ingot.server.net.ClientText;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.protocol.ModelVersions;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.protocol.grpc.ModelStreamInferResponse;
import io.netty.buffer.ByteBufAllocator;

import java.util.HashSet;
import java.util.Set;

/**
 * One {@code ModelStreamInfer} stream: every request read from the stream is submitted at once, and each response is
 * sent as it completes (not necessarily in request order; clients match them by id). A decoupled model's request may
 * get zero or many responses, each sent as the model sends it; as in Triton's {@code stream_infer_handler.cc}, every
 * response carries {@code parameters["triton_final_response"]} (true on its request's last, and always for other
 * models), and a flags-only final is dropped unless the request set {@code triton_enable_empty_final_response}, which
 * makes it an empty response with the request's id, model name and version. A failed request is answered
 * in the stream with {@code error_message} and the stream stays open. When the client half-closes, the stream ends
 * after the last in-flight request's final.
 *
 * <p>Responses complete on several Ingot threads; sending is serialized on this object, as gRPC requires.
 */
final class GrpcInferStream implements StreamObserver<ModelInferRequest>
{
    private static final System.Logger LOG = System.getLogger(GrpcInferStream.class.getName());

    private final InferenceCore core;
    private final GrpcInferDecoder decoder;
    private final ByteBufAllocator allocator;
    private final StreamObserver<ModelStreamInferResponse> observer;
    private int inFlight;
    /** The requests submitted and not yet final, cancelled when the client goes away (as Triton's stream does). */
    private final Set<InferCall> submitted = new HashSet<>();
    private boolean halfClosed;
    private boolean ended;

    GrpcInferStream(final InferenceCore core, final GrpcInferDecoder decoder, final ByteBufAllocator allocator,
        final StreamObserver<ModelStreamInferResponse> observer)
    {
        this.core = core;
        this.decoder = decoder;
        this.allocator = allocator;
        this.observer = observer;
    }

    @Override
    public void onNext(final ModelInferRequest request)
    {
        synchronized (this)
        {
            if (ended)
            {
                return;
            }
            inFlight++;
        }
        InferCall call = null;
        try
        {
            call = new InferCall(allocator, request.getModelName(), ModelVersions.parse(request.getModelVersion()));
            decoder.decode(request, call);
            synchronized (this)
            {
                submitted.add(call);
            }
            core.submit(call.request(), new StreamExchange(call, request));
        }
        catch (final InferenceException failure)
        {
            if (call != null)
            {
                forget(call);
                call.release();
            }
            sendError(request, failure.getMessage());
        }
        catch (final RuntimeException bug)
        {
            if (call != null)
            {
                forget(call);
                call.release();
            }
            LOG.log(System.Logger.Level.ERROR, "streamed inference for model '" + request.getModelName()
                + "' failed", bug);
            sendError(request, "internal error while submitting the request: " + bug);
        }
    }

    @Override
    public void onError(final Throwable cause)
    {
        // The client cancelled or the connection broke: the requests still streaming are cancelled (a decoupled
        // model may stop early), and their responses are dropped when they arrive.
        final InferCall[] open;
        synchronized (this)
        {
            ended = true;
            open = submitted.toArray(new InferCall[0]);
        }
        for (final InferCall call : open)
        {
            call.request().cancel();
        }
    }

    private synchronized void forget(final InferCall call)
    {
        submitted.remove(call);
    }

    @Override
    public void onCompleted()
    {
        synchronized (this)
        {
            halfClosed = true;
            completeIfDrained();
        }
    }

    private void sendError(final ModelInferRequest request, final String message)
    {
        send(ModelStreamInferResponse.newBuilder()
            .setErrorMessage(message == null ? "unknown error" : ClientText.message(message))
            .setInferResponse(header(request))
            .build(), true);
    }

    /** @return a response that only names the request: its id, model name and version */
    private static ModelInferResponse.Builder header(final ModelInferRequest request)
    {
        return ModelInferResponse.newBuilder()
            .setModelName(request.getModelName())
            .setModelVersion(request.getModelVersion())
            .setId(request.getId());
    }

    /**
     * @param response the message, or {@code null} for nothing to send (a dropped flags-only final)
     * @param last     whether it ends its request (then the request is no longer in flight)
     */
    private void send(final ModelStreamInferResponse response, final boolean last)
    {
        synchronized (this)
        {
            if (last)
            {
                inFlight--;
            }
            if (response != null && !ended)
            {
                try
                {
                    observer.onNext(response);
                }
                catch (final RuntimeException clientGone)
                {
                    ended = true;
                    LOG.log(System.Logger.Level.DEBUG, "could not send a streamed response: the stream ended",
                        clientGone);
                }
            }
            completeIfDrained();
        }
    }

    private void completeIfDrained()
    {
        if (halfClosed && inFlight == 0 && !ended)
        {
            ended = true;
            try
            {
                observer.onCompleted();
            }
            catch (final RuntimeException clientGone)
            {
                LOG.log(System.Logger.Level.DEBUG, "could not complete the stream", clientGone);
            }
        }
    }

    /** One streamed request in flight: its responses, each with its final flag. */
    private final class StreamExchange implements ResponseStreamListener
    {
        private final InferCall call;
        private final ModelInferRequest request;

        StreamExchange(final InferCall call, final ModelInferRequest request)
        {
            this.call = call;
            this.request = request;
        }

        @Override
        public void onResponse(final InferenceResponse response, final boolean last)
        {
            if (response == null)
            {
                emptyFinal();
                return;
            }
            GrpcInferEncoder.Encoded encoded = null;
            String error = null;
            try
            {
                if (!response.isOk())
                {
                    error = response.error().getMessage();
                }
                else
                {
                    encoded = GrpcInferEncoder.encodeStreamed(call, response, last);
                }
            }
            catch (final InferenceException failure)
            {
                error = failure.getMessage();
            }
            catch (final RuntimeException bug)
            {
                LOG.log(System.Logger.Level.ERROR, "failed to encode a streamed response", bug);
                error = "internal error while encoding the response: " + bug;
            }
            finally
            {
                response.close();
            }
            try
            {
                if (encoded != null)
                {
                    send(ModelStreamInferResponse.newBuilder().setInferResponse(encoded.message()).build(), last);
                }
                else
                {
                    // Triton: the error in error_message, the response naming the request and whether it was last.
                    send(ModelStreamInferResponse.newBuilder()
                        .setErrorMessage(error == null ? "unknown error" : ClientText.message(error))
                        .setInferResponse(header(request).putParameters(GrpcInferEncoder.FINAL_RESPONSE,
                            GrpcInferEncoder.finalParameter(last)))
                        .build(), last);
                }
            }
            finally
            {
                if (encoded != null)
                {
                    encoded.release();
                }
                if (last)
                {
                    forget(call);
                    call.release();
                }
            }
        }

        /** A decoupled model's flags-only final: dropped, or an empty response when the client asked for it. */
        private void emptyFinal()
        {
            try
            {
                send(!call.emptyFinalResponse() ? null : ModelStreamInferResponse.newBuilder()
                    .setInferResponse(header(request).putParameters(GrpcInferEncoder.FINAL_RESPONSE,
                        GrpcInferEncoder.finalParameter(true)))
                    .build(), true);
            }
            finally
            {
                forget(call);
                call.release();
            }
        }
    }
}
