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
    /** Server to stub: one response to a BLS request (several for a decoupled one, the last flagged final). */
    static final int BLS_RESPONSE = 3;
    /** Server to stub: call {@code finalize()} and exit. */
    static final int FINALIZE = 4;
    /** Server to stub: the answer to a RESPONSE or a CALL of the stub. */
    static final int REPLY = 5;

    /** Stub to server: the stub runs ({@code int64 pid, uint32 length, 4 reserved, version text}). */
    static final int HELLO = 101;
    /** Stub to server: {@code int32 status, uint32 length, text} (an error, or the auto-completed config JSON). */
    static final int INIT_RESULT = 102;
    /** Stub to server: the responses to a batch (none for a decoupled model, which sends RESPONSE records). */
    static final int EXECUTE_RESULT = 103;
    /** Stub to server: a BLS request. */
    static final int BLS_REQUEST = 104;
    /**
     * Stub to server: {@code uint32 bls_count, uint32 batch_count}, then {@code bls_count x uint64} release keys of BLS
     * responses whose outputs and {@code batch_count x uint64} batch ids whose inputs the model no longer references.
     */
    static final int RELEASE = 105;
    /** Stub to server: {@code int32 status, uint32 length, text} after {@code finalize()}. */
    static final int FINALIZE_RESULT = 106;
    /** Stub to server: one response of a request, sent through its response sender; answered with REPLY. */
    static final int RESPONSE = 107;
    /** Stub to server: {@code uint64 call_id, uint32 length, 4 reserved, JSON}: metrics, model control, queries. */
    static final int CALL = 108;

    /**
     * EXECUTE: {@code uint32 request_count, uint16 0, uint16 flags, uint64 batch_id, uint64 block_offset, uint64
     * block_length} (the input area's block holding every input of the batch).
     */
    static final int EXECUTE_HEADER_LENGTH = 32;
    /** EXECUTE flag: the model is decoupled. */
    static final int EXECUTE_DECOUPLED = 1;
    /**
     * EXECUTE, per request: {@code uint64 handle, uint64 correlation_id, uint64 timeout_us, uint64 requested_outputs
     * (bit o: configured output o), uint32 flags, uint16 input_count, uint16 id_length, uint32 parameters_length,
     * uint32 correlation_key_length}, then the id, the parameters JSON and the string correlation ID (each padded to
     * 8), then the input entries.
     */
    static final int REQUEST_HEADER_LENGTH = 48;
    /** Request flag: Triton's {@code TRITONSERVER_REQUEST_FLAG_SEQUENCE_START}. */
    static final int SEQUENCE_START = 1;
    /** Request flag: {@code TRITONSERVER_REQUEST_FLAG_SEQUENCE_END}. */
    static final int SEQUENCE_END = 2;
    /** Request flag: the correlation ID is the string that follows, not the number. */
    static final int CORRELATION_STRING = 4;
    /**
     * EXECUTE_RESULT: {@code int32 status, uint32 response_count, uint32 message_length, uint32 released_count}, then
     * {@code released_count x uint64} ids of batches whose inputs the model no longer references, then the message.
     */
    static final int RESULT_HEADER_LENGTH = 16;
    /** EXECUTE_RESULT, per response: {@code int32 status, uint16 output_count, uint16 0, uint32 message_length, 0}. */
    static final int RESPONSE_HEADER_LENGTH = 16;
    /**
     * RESPONSE: {@code uint64 call_id, uint64 handle, uint32 flags, int32 status, uint16 output_count, uint16 0,
     * uint32 message_length}, then the message, then the output entries.
     */
    static final int SEND_HEADER_LENGTH = 32;
    /** RESPONSE flag: Triton's {@code TRITONSERVER_RESPONSE_COMPLETE_FINAL}. */
    static final int SEND_FINAL = 1;
    /** RESPONSE flag: a response comes with it (else flags only). */
    static final int SEND_HAS_RESPONSE = 2;
    /** RESPONSE flag: the model dropped the request's sender without the final flag (no reply expected). */
    static final int SEND_DROPPED = 4;
    /** REPLY: {@code uint64 call_id, int32 status, uint32 message_length, float64 number, uint64 handle}, message. */
    static final int REPLY_HEADER_LENGTH = 32;
    /** CALL: {@code uint64 call_id (0: no reply wanted), uint32 json_length, uint32 reserved}, then the JSON. */
    static final int CALL_HEADER_LENGTH = 16;
    /**
     * BLS_REQUEST: {@code uint64 id, int64 version, int64 timeout_us, uint64 correlation_id, uint32 flags, uint16
     * model, id, input, output counts, uint32 parameters_length, uint16 correlation_key_length, uint16 0, uint32 0}.
     */
    static final int BLS_REQUEST_HEADER_LENGTH = 56;
    /** BLS_REQUEST flag: {@code exec(decoupled=True)}: every response of the called model comes back. */
    static final int BLS_DECOUPLED = 8;
    /**
     * BLS_RESPONSE: {@code uint64 id, uint64 release_key (0: nothing to release), int32 status, uint16 message_length,
     * uint16 output_count, uint32 flags, uint32 0}, then the message and the output entries.
     */
    static final int BLS_RESPONSE_HEADER_LENGTH = 32;
    /** BLS_RESPONSE flag: the last response of the request. */
    static final int BLS_FINAL = 1;

    /** Bytes of an error message the server writes into a frame. */
    static final int MAX_MESSAGE_BYTES = 4096;

    private StubProtocol()
    {
    }
}
