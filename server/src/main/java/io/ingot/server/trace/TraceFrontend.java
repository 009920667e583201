package io.ingot.server.trace;

/**
 * The frontend a traced request came through, which names its receive and send timestamps as Triton's frontends
 * name them ({@code src/http_server.cc}: {@code HTTP_RECV_*}/{@code HTTP_SEND_*}; {@code src/grpc/infer_handler.cc}:
 * {@code GRPC_WAITREAD_*}/{@code GRPC_SEND_*}).
 */
public enum TraceFrontend
{
    /** KServe v2 over HTTP. */
    HTTP("HTTP_RECV_START", "HTTP_RECV_END", "HTTP_SEND_START", "HTTP_SEND_END"),
    /** KServe v2 over gRPC, unary or streaming. */
    GRPC("GRPC_WAITREAD_START", "GRPC_WAITREAD_END", "GRPC_SEND_START", "GRPC_SEND_END");

    final String receiveStart;
    final String receiveEnd;
    final String sendStart;
    final String sendEnd;

    TraceFrontend(final String receiveStart, final String receiveEnd, final String sendStart, final String sendEnd)
    {
        this.receiveStart = receiveStart;
        this.receiveEnd = receiveEnd;
        this.sendStart = sendStart;
        this.sendEnd = sendEnd;
    }
}
