package io.ingot.python;

/**
 * Record types and frame layouts between the server and a stub (python/README.md, "Protocol"), little-endian, every
 * field naturally aligned, texts UTF-8 padded to 8 bytes. Tensor entries are
 * {@link io.ingot.ipc.TensorEntryFlyweight}'s and names {@link io.ingot.ipc.OutputNameFlyweight}'s, as in the IPC
 * transport. {@code ingot_python_stub.py} names the same numbers.
 */
final class StubProtocol
{
    /** Set in a record type when the record carries {@code int64 offset, int64 length} of its body in a data area. */
    static final int INDIRECT = 0x10000;
    /** Bytes of an indirect record's body. */
    static final int INDIRECT_LENGTH = 16;

    /** Server to stub: the {@code initialize(args)} JSON (or, for auto-complete, {@code {"model_config": ...}}). */
    static final int INIT = 1;
    /** Server to stub: a batch of requests. */
    static final int EXECUTE = 2;
    /** Server to stub: the response to a BLS request. */
    static final int BLS_RESPONSE = 3;
    /** Server to stub: call {@code finalize()} and exit. */
    static final int FINALIZE = 4;

    /** Stub to server: the stub runs ({@code int64 pid, uint32 length, 4 reserved, version text}). */
    static final int HELLO = 101;
    /** Stub to server: {@code int32 status, uint32 length, text} (an error, or the auto-completed config JSON). */
    static final int INIT_RESULT = 102;
    /** Stub to server: the responses to a batch. */
    static final int EXECUTE_RESULT = 103;
    /** Stub to server: a BLS request. */
    static final int BLS_REQUEST = 104;
    /** Stub to server: {@code uint32 count, 4 reserved, count x uint64 BLS id} whose outputs the model dropped. */
    static final int BLS_RELEASE = 105;
    /** Stub to server: {@code int32 status, uint32 length, text} after {@code finalize()}. */
    static final int FINALIZE_RESULT = 106;

    /** EXECUTE: {@code uint32 request_count, uint16 output_name_count, uint16 flags}, then names, then requests. */
    static final int EXECUTE_HEADER_LENGTH = 8;
    /** EXECUTE, per request: {@code uint16 input_count, uint16 reserved, uint32 reserved}, then tensor entries. */
    static final int REQUEST_HEADER_LENGTH = 8;
    /** EXECUTE_RESULT: {@code int32 status, uint32 response_count, uint32 message_length, uint32 reserved}. */
    static final int RESULT_HEADER_LENGTH = 16;
    /** EXECUTE_RESULT, per response: {@code int32 status, uint16 output_count, uint16 0, uint32 message_length, 0}. */
    static final int RESPONSE_HEADER_LENGTH = 16;
    /** BLS_REQUEST: {@code uint64 id, int64 version, int64 timeout_us, uint16 model, id, input, output counts}. */
    static final int BLS_REQUEST_HEADER_LENGTH = 32;
    /** BLS_RESPONSE: {@code uint64 id, int32 status, uint16 message_length, uint16 output_count}. */
    static final int BLS_RESPONSE_HEADER_LENGTH = 16;

    /** Bytes of an error message the server writes into a frame. */
    static final int MAX_MESSAGE_BYTES = 4096;

    private StubProtocol()
    {
    }
}
