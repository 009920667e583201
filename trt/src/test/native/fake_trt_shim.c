/*
 * fake_trt_shim.c - TEST DOUBLE of ingot_trt_shim.h. Not TensorRT; used only by Ingot's tests.
 *
 * It implements the shim's C surface over a trivial text "plan" format of its own, so that the Java binding, the
 * datatype/shape mapping, profile selection and error propagation can be tested on machines without TensorRT and
 * without CUDA. Tensor addresses are host pointers and "inference" runs on the calling thread inside enqueue.
 *
 * Plan format (one directive per line, '#' starts a comment, tokens separated by blanks):
 *
 *   ingot-fake-trt-plan 1                        first line, required
 *   input  <name> <dtype> <dims> [format=<f>] [shape_io]
 *   output <name> <dtype> <dims> = <op> <input> [<input>]
 *       op: copy A | add A B | sub A B (add/sub: FLOAT, INT32, INT64)
 *           | profile A: INT32 output of A's shape, every element the context's optimization profile index
 *   profile <index> <input> <min> <opt> <max>    one line per (profile, dynamic input)
 *   log_on_load <severity> <message...>          logged from a new native thread while the plan loads
 *   fail_enqueue <message...>                    every enqueue fails with this message (logged as ERROR)
 *
 *   <dtype>: FLOAT HALF INT8 INT32 BOOL UINT8 FP8 BF16 INT64 INT4 FP4 E8M0 (TensorRT's DataType names)
 *   <dims>:  dimensions joined by 'x' (-1 = dynamic), e.g. -1x16; "scalar" for rank 0
 *   <f>:     LINEAR CHW2 HWC8 CHW4 CHW16 CHW32 DHWC8 CDHW32 HWC DLA_LINEAR DLA_HWC4 HWC16 DHWC
 *   <severity>: INTERNAL_ERROR ERROR WARNING INFO VERBOSE
 *
 * An output's shape is the shape of its first operand. Like TensorRT, a failing call logs an ERROR through the
 * logger and returns null/0/-1; the message is also the thread's last error.
 */
#include "ingot_trt_shim.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_MAX_TENSORS 16
#define FAKE_MAX_PROFILES 8
#define FAKE_NAME_LENGTH 64
#define FAKE_MESSAGE_LENGTH 512

enum fake_op { OP_NONE, OP_COPY, OP_ADD, OP_SUB, OP_PROFILE };

typedef struct fake_logger
{
    ingot_trt_log_fn fn;
    int32_t min_severity;
} fake_logger;

typedef struct fake_runtime
{
    fake_logger* logger;
} fake_runtime;

typedef struct fake_tensor
{
    char name[FAKE_NAME_LENGTH];
    int32_t mode;
    int32_t dtype;
    int32_t format;
    int32_t shape_io;
    int32_t rank;
    int64_t dims[INGOT_TRT_MAX_DIMS];
    enum fake_op op;
    int32_t operands[2];
    int32_t operand_count;
    /* per profile: min/opt/max, valid when profile_rank[p] >= 0 */
    int32_t profile_rank[FAKE_MAX_PROFILES];
    int64_t profile_dims[FAKE_MAX_PROFILES][3][INGOT_TRT_MAX_DIMS];
} fake_tensor;

typedef struct fake_engine
{
    fake_logger* logger;
    int32_t tensor_count;
    fake_tensor tensors[FAKE_MAX_TENSORS];
    int32_t profile_count;
    char fail_enqueue[FAKE_MESSAGE_LENGTH];
} fake_engine;

typedef struct fake_context
{
    fake_engine* engine;
    int32_t profile;
    int32_t shape_set[FAKE_MAX_TENSORS];
    int64_t shapes[FAKE_MAX_TENSORS][INGOT_TRT_MAX_DIMS];
    void* addresses[FAKE_MAX_TENSORS];
} fake_context;

static __thread char last_error[FAKE_MESSAGE_LENGTH];

static const char* const DTYPE_NAMES[] = {"FLOAT", "HALF", "INT8", "INT32", "BOOL", "UINT8", "FP8", "BF16",
    "INT64", "INT4", "FP4", "E8M0"};
static const int DTYPE_SIZES[] = {4, 2, 1, 4, 1, 1, 1, 2, 8, 1, 1, 1};
static const char* const FORMAT_NAMES[] = {"LINEAR", "CHW2", "HWC8", "CHW4", "CHW16", "CHW32", "DHWC8", "CDHW32",
    "HWC", "DLA_LINEAR", "DLA_HWC4", "HWC16", "DHWC"};
static const char* const SEVERITY_NAMES[] = {"INTERNAL_ERROR", "ERROR", "WARNING", "INFO", "VERBOSE"};

static int lookup(const char* const* names, int count, const char* token)
{
    for (int i = 0; i < count; ++i)
    {
        if (strcmp(names[i], token) == 0)
        {
            return i;
        }
    }
    return -1;
}

static void log_message(const fake_logger* logger, int32_t severity, const char* message)
{
    if (logger != NULL && logger->fn != NULL && severity <= logger->min_severity)
    {
        logger->fn(severity, message);
    }
}

/* Records the thread's last error and logs it as TensorRT does (severity ERROR). */
static void fail(const fake_logger* logger, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_error, sizeof last_error, format, args);
    va_end(args);
    log_message(logger, INGOT_TRT_SEVERITY_ERROR, last_error);
}

static void clear_error(void)
{
    last_error[0] = '\0';
}

static int find_tensor(const fake_engine* engine, const char* name)
{
    for (int i = 0; i < engine->tensor_count; ++i)
    {
        if (strcmp(engine->tensors[i].name, name) == 0)
        {
            return i;
        }
    }
    return -1;
}

/* Parses "-1x16" or "scalar" into dims; returns the rank or -1. */
static int parse_dims(const char* token, int64_t* dims)
{
    if (strcmp(token, "scalar") == 0)
    {
        return 0;
    }
    int rank = 0;
    const char* cursor = token;
    while (*cursor != '\0')
    {
        if (rank == INGOT_TRT_MAX_DIMS)
        {
            return -1;
        }
        char* end = NULL;
        const long long value = strtoll(cursor, &end, 10);
        if (end == cursor || value < -1)
        {
            return -1;
        }
        dims[rank++] = value;
        if (*end == 'x')
        {
            cursor = end + 1;
            if (*cursor == '\0')
            {
                return -1;
            }
        }
        else if (*end == '\0')
        {
            cursor = end;
        }
        else
        {
            return -1;
        }
    }
    return rank;
}

typedef struct log_job
{
    const fake_logger* logger;
    int32_t severity;
    char message[FAKE_MESSAGE_LENGTH];
} log_job;

static void* log_from_thread(void* argument)
{
    const log_job* job = (const log_job*) argument;
    log_message(job->logger, job->severity, job->message);
    return NULL;
}

/* Joins the rest of the line's tokens (from strtok_r's state) into one message. */
static void rest_of_line(char** state, char* out, size_t size)
{
    out[0] = '\0';
    const char* token;
    while ((token = strtok_r(NULL, " \t", state)) != NULL)
    {
        if (out[0] != '\0')
        {
            strncat(out, " ", size - strlen(out) - 1);
        }
        strncat(out, token, size - strlen(out) - 1);
    }
}

static int parse_line(fake_engine* engine, char* line, int number, log_job* jobs, int* job_count)
{
    char* state = NULL;
    const char* keyword = strtok_r(line, " \t", &state);
    if (keyword == NULL)
    {
        return 1;
    }
    if (strcmp(keyword, "input") == 0 || strcmp(keyword, "output") == 0)
    {
        if (engine->tensor_count == FAKE_MAX_TENSORS)
        {
            fail(engine->logger, "fake plan line %d: more than %d tensors", number, FAKE_MAX_TENSORS);
            return 0;
        }
        fake_tensor* tensor = &engine->tensors[engine->tensor_count];
        memset(tensor, 0, sizeof *tensor);
        for (int p = 0; p < FAKE_MAX_PROFILES; ++p)
        {
            tensor->profile_rank[p] = -1;
        }
        tensor->mode = keyword[0] == 'i' ? INGOT_TRT_IO_INPUT : INGOT_TRT_IO_OUTPUT;
        const char* name = strtok_r(NULL, " \t", &state);
        const char* dtype = strtok_r(NULL, " \t", &state);
        const char* dims = strtok_r(NULL, " \t", &state);
        if (name == NULL || dtype == NULL || dims == NULL)
        {
            fail(engine->logger, "fake plan line %d: expected '%s <name> <dtype> <dims>'", number, keyword);
            return 0;
        }
        if (strlen(name) >= FAKE_NAME_LENGTH || find_tensor(engine, name) >= 0)
        {
            fail(engine->logger, "fake plan line %d: tensor name '%s' is too long or repeated", number, name);
            return 0;
        }
        strcpy(tensor->name, name);
        tensor->dtype = lookup(DTYPE_NAMES, 12, dtype);
        if (tensor->dtype < 0)
        {
            fail(engine->logger, "fake plan line %d: unknown data type '%s'", number, dtype);
            return 0;
        }
        tensor->rank = parse_dims(dims, tensor->dims);
        if (tensor->rank < 0)
        {
            fail(engine->logger, "fake plan line %d: bad dims '%s'", number, dims);
            return 0;
        }
        const char* token;
        while ((token = strtok_r(NULL, " \t", &state)) != NULL)
        {
            if (strncmp(token, "format=", 7) == 0)
            {
                tensor->format = lookup(FORMAT_NAMES, 13, token + 7);
                if (tensor->format < 0)
                {
                    fail(engine->logger, "fake plan line %d: unknown format '%s'", number, token + 7);
                    return 0;
                }
            }
            else if (strcmp(token, "shape_io") == 0)
            {
                tensor->shape_io = 1;
            }
            else if (strcmp(token, "=") == 0 && tensor->mode == INGOT_TRT_IO_OUTPUT)
            {
                const char* op = strtok_r(NULL, " \t", &state);
                if (op == NULL)
                {
                    fail(engine->logger, "fake plan line %d: missing operation after '='", number);
                    return 0;
                }
                tensor->op = strcmp(op, "copy") == 0 ? OP_COPY
                    : strcmp(op, "add") == 0 ? OP_ADD
                    : strcmp(op, "sub") == 0 ? OP_SUB
                    : strcmp(op, "profile") == 0 ? OP_PROFILE : OP_NONE;
                if (tensor->op == OP_NONE)
                {
                    fail(engine->logger, "fake plan line %d: unknown operation '%s'", number, op);
                    return 0;
                }
                const int wanted = tensor->op == OP_COPY || tensor->op == OP_PROFILE ? 1 : 2;
                if (tensor->op == OP_PROFILE && tensor->dtype != 3)
                {
                    fail(engine->logger, "fake plan line %d: a 'profile' output must be INT32", number);
                    return 0;
                }
                for (int i = 0; i < wanted; ++i)
                {
                    const char* operand = strtok_r(NULL, " \t", &state);
                    const int index = operand == NULL ? -1 : find_tensor(engine, operand);
                    if (index < 0 || engine->tensors[index].mode != INGOT_TRT_IO_INPUT
                        || (tensor->op != OP_PROFILE && engine->tensors[index].dtype != tensor->dtype)
                        || engine->tensors[index].rank != tensor->rank)
                    {
                        fail(engine->logger,
                            "fake plan line %d: operand %d of '%s' must name an input declared above with the "
                            "output's data type and rank",
                            number, i + 1, op);
                        return 0;
                    }
                    tensor->operands[i] = index;
                }
                tensor->operand_count = wanted;
            }
            else
            {
                fail(engine->logger, "fake plan line %d: unexpected '%s'", number, token);
                return 0;
            }
        }
        if (tensor->mode == INGOT_TRT_IO_OUTPUT && tensor->op == OP_NONE)
        {
            fail(engine->logger, "fake plan line %d: output '%s' needs '= <op> <inputs>'", number, name);
            return 0;
        }
        engine->tensor_count++;
        return 1;
    }
    if (strcmp(keyword, "profile") == 0)
    {
        const char* index_token = strtok_r(NULL, " \t", &state);
        const char* name = strtok_r(NULL, " \t", &state);
        const int profile = index_token == NULL ? -1 : atoi(index_token);
        const int index = name == NULL ? -1 : find_tensor(engine, name);
        if (profile < 0 || profile >= FAKE_MAX_PROFILES || index < 0
            || engine->tensors[index].mode != INGOT_TRT_IO_INPUT)
        {
            fail(engine->logger, "fake plan line %d: expected 'profile <0..%d> <input> <min> <opt> <max>'", number,
                FAKE_MAX_PROFILES - 1);
            return 0;
        }
        fake_tensor* tensor = &engine->tensors[index];
        for (int which = 0; which < 3; ++which)
        {
            const char* dims = strtok_r(NULL, " \t", &state);
            if (dims == NULL || parse_dims(dims, tensor->profile_dims[profile][which]) != tensor->rank)
            {
                fail(engine->logger, "fake plan line %d: profile shape %d of '%s' must have rank %d", number,
                    which, name, tensor->rank);
                return 0;
            }
        }
        tensor->profile_rank[profile] = tensor->rank;
        if (profile + 1 > engine->profile_count)
        {
            engine->profile_count = profile + 1;
        }
        return 1;
    }
    if (strcmp(keyword, "log_on_load") == 0)
    {
        const char* severity = strtok_r(NULL, " \t", &state);
        const int level = severity == NULL ? -1 : lookup(SEVERITY_NAMES, 5, severity);
        if (level < 0 || *job_count == 4)
        {
            fail(engine->logger, "fake plan line %d: expected 'log_on_load <severity> <message>' (at most 4)",
                number);
            return 0;
        }
        log_job* job = &jobs[(*job_count)++];
        job->logger = engine->logger;
        job->severity = level;
        rest_of_line(&state, job->message, sizeof job->message);
        return 1;
    }
    if (strcmp(keyword, "fail_enqueue") == 0)
    {
        rest_of_line(&state, engine->fail_enqueue, sizeof engine->fail_enqueue);
        if (engine->fail_enqueue[0] == '\0')
        {
            strcpy(engine->fail_enqueue, "enqueue failed");
        }
        return 1;
    }
    fail(engine->logger, "fake plan line %d: unknown directive '%s'", number, keyword);
    return 0;
}

/* Every profile must describe every dynamic input; static inputs get their own shape as min/opt/max. */
static int complete_profiles(fake_engine* engine)
{
    if (engine->profile_count == 0)
    {
        engine->profile_count = 1;
    }
    for (int i = 0; i < engine->tensor_count; ++i)
    {
        fake_tensor* tensor = &engine->tensors[i];
        if (tensor->mode != INGOT_TRT_IO_INPUT)
        {
            continue;
        }
        int dynamic = 0;
        for (int d = 0; d < tensor->rank; ++d)
        {
            dynamic |= tensor->dims[d] < 0;
        }
        for (int p = 0; p < engine->profile_count; ++p)
        {
            if (tensor->profile_rank[p] >= 0)
            {
                continue;
            }
            if (dynamic)
            {
                fail(engine->logger, "fake plan: profile %d does not describe dynamic input '%s'", p, tensor->name);
                return 0;
            }
            tensor->profile_rank[p] = tensor->rank;
            for (int which = 0; which < 3; ++which)
            {
                memcpy(tensor->profile_dims[p][which], tensor->dims, sizeof tensor->dims);
            }
        }
    }
    return 1;
}

int32_t ingot_trt_lib_version(void)
{
    clear_error();
    return 0;
}

int32_t ingot_trt_header_version(void)
{
    return 0;
}

const char* ingot_trt_describe(void)
{
    return "Ingot fake TensorRT shim (test double: no TensorRT, no CUDA)";
}

const char* ingot_trt_last_error(void)
{
    return last_error;
}

void* ingot_trt_logger_create(ingot_trt_log_fn fn, int32_t min_severity)
{
    clear_error();
    if (fn == NULL)
    {
        fail(NULL, "ingot_trt_logger_create: null callback");
        return NULL;
    }
    fake_logger* logger = calloc(1, sizeof *logger);
    if (logger != NULL)
    {
        logger->fn = fn;
        logger->min_severity = min_severity;
    }
    return logger;
}

void ingot_trt_logger_destroy(void* logger)
{
    free(logger);
}

void* ingot_trt_runtime_create(void* logger)
{
    clear_error();
    if (logger == NULL)
    {
        fail(NULL, "ingot_trt_runtime_create: null logger");
        return NULL;
    }
    fake_runtime* runtime = calloc(1, sizeof *runtime);
    if (runtime != NULL)
    {
        runtime->logger = logger;
    }
    return runtime;
}

void ingot_trt_runtime_destroy(void* runtime)
{
    free(runtime);
}

void* ingot_trt_engine_deserialize(void* runtime, const void* blob, size_t size)
{
    clear_error();
    if (runtime == NULL || blob == NULL)
    {
        fail(NULL, "ingot_trt_engine_deserialize: null runtime or plan");
        return NULL;
    }
    fake_logger* logger = ((fake_runtime*) runtime)->logger;
    static const char magic[] = "ingot-fake-trt-plan 1";
    if (size < sizeof magic - 1 || memcmp(blob, magic, sizeof magic - 1) != 0)
    {
        fail(logger, "fake plan: magic tag does not match (expected the first line '%s')", magic);
        return NULL;
    }
    char* text = malloc(size + 1);
    fake_engine* engine = calloc(1, sizeof *engine);
    if (text == NULL || engine == NULL)
    {
        free(text);
        free(engine);
        fail(logger, "fake plan: out of memory");
        return NULL;
    }
    memcpy(text, blob, size);
    text[size] = '\0';
    engine->logger = logger;
    log_job jobs[4];
    int job_count = 0;
    int ok = 1;
    int number = 0;
    char* line_state = NULL;
    for (char* line = strtok_r(text, "\n", &line_state); line != NULL && ok;
         line = strtok_r(NULL, "\n", &line_state))
    {
        ++number;
        char* comment = strchr(line, '#');
        if (comment != NULL)
        {
            *comment = '\0';
        }
        if (number == 1)
        {
            continue;
        }
        ok = parse_line(engine, line, number, jobs, &job_count);
    }
    free(text);
    if (ok && engine->tensor_count == 0)
    {
        fail(logger, "fake plan: no input or output tensors");
        ok = 0;
    }
    if (!ok || !complete_profiles(engine))
    {
        free(engine);
        return NULL;
    }
    for (int i = 0; i < job_count; ++i)
    {
        // A thread TensorRT's caller never saw, as TensorRT's own worker threads are: the Java upcall must cope.
        pthread_t thread;
        if (pthread_create(&thread, NULL, log_from_thread, &jobs[i]) == 0)
        {
            pthread_join(thread, NULL);
        }
    }
    char message[128];
    snprintf(message, sizeof message, "fake engine loaded: %d I/O tensors, %d optimization profiles",
        engine->tensor_count, engine->profile_count);
    log_message(logger, INGOT_TRT_SEVERITY_INFO, message);
    return engine;
}

void ingot_trt_engine_destroy(void* engine)
{
    free(engine);
}

static const fake_tensor* tensor_of(void* engine, const char* name, const char* where)
{
    clear_error();
    if (engine == NULL || name == NULL)
    {
        fail(NULL, "%s: null engine or name", where);
        return NULL;
    }
    const int index = find_tensor(engine, name);
    if (index < 0)
    {
        fail(((fake_engine*) engine)->logger, "%s: no tensor named '%s'", where, name);
        return NULL;
    }
    return &((fake_engine*) engine)->tensors[index];
}

int32_t ingot_trt_engine_nb_io(void* engine)
{
    clear_error();
    if (engine == NULL)
    {
        fail(NULL, "ingot_trt_engine_nb_io: null engine");
        return -1;
    }
    return ((fake_engine*) engine)->tensor_count;
}

const char* ingot_trt_engine_io_name(void* engine, int32_t index)
{
    clear_error();
    if (engine == NULL || index < 0 || index >= ((fake_engine*) engine)->tensor_count)
    {
        fail(NULL, "ingot_trt_engine_io_name: no tensor at index %d", index);
        return NULL;
    }
    return ((fake_engine*) engine)->tensors[index].name;
}

int32_t ingot_trt_engine_io_mode(void* engine, const char* name)
{
    clear_error();
    if (engine == NULL || name == NULL)
    {
        fail(NULL, "ingot_trt_engine_io_mode: null engine or name");
        return -1;
    }
    const int index = find_tensor(engine, name);
    return index < 0 ? INGOT_TRT_IO_NONE : ((fake_engine*) engine)->tensors[index].mode;
}

int32_t ingot_trt_engine_dtype(void* engine, const char* name)
{
    const fake_tensor* tensor = tensor_of(engine, name, "ingot_trt_engine_dtype");
    return tensor == NULL ? -1 : tensor->dtype;
}

int32_t ingot_trt_engine_format(void* engine, const char* name)
{
    const fake_tensor* tensor = tensor_of(engine, name, "ingot_trt_engine_format");
    return tensor == NULL ? -1 : tensor->format;
}

int32_t ingot_trt_engine_is_shape_io(void* engine, const char* name)
{
    const fake_tensor* tensor = tensor_of(engine, name, "ingot_trt_engine_is_shape_io");
    return tensor == NULL ? -1 : tensor->shape_io;
}

int32_t ingot_trt_engine_shape(void* engine, const char* name, int64_t* out)
{
    const fake_tensor* tensor = tensor_of(engine, name, "ingot_trt_engine_shape");
    if (tensor == NULL)
    {
        return -1;
    }
    memcpy(out, tensor->dims, sizeof(int64_t) * (size_t) tensor->rank);
    return tensor->rank;
}

int32_t ingot_trt_engine_nb_profiles(void* engine)
{
    clear_error();
    if (engine == NULL)
    {
        fail(NULL, "ingot_trt_engine_nb_profiles: null engine");
        return -1;
    }
    return ((fake_engine*) engine)->profile_count;
}

int32_t ingot_trt_engine_profile_shape(void* engine, const char* name, int32_t profile, int32_t selector,
    int64_t* out)
{
    const fake_tensor* tensor = tensor_of(engine, name, "ingot_trt_engine_profile_shape");
    if (tensor == NULL)
    {
        return -1;
    }
    if (tensor->mode != INGOT_TRT_IO_INPUT || profile < 0 || profile >= ((fake_engine*) engine)->profile_count
        || selector < 0 || selector > 2)
    {
        fail(((fake_engine*) engine)->logger, "getProfileShape: invalid profile %d or selector %d for '%s'",
            profile, selector, name);
        return -1;
    }
    memcpy(out, tensor->profile_dims[profile][selector], sizeof(int64_t) * (size_t) tensor->rank);
    return tensor->rank;
}

static void reset_shapes(fake_context* context)
{
    const fake_engine* engine = context->engine;
    for (int i = 0; i < engine->tensor_count; ++i)
    {
        const fake_tensor* tensor = &engine->tensors[i];
        int dynamic = 0;
        for (int d = 0; d < tensor->rank; ++d)
        {
            dynamic |= tensor->dims[d] < 0;
        }
        context->shape_set[i] = tensor->mode == INGOT_TRT_IO_INPUT && !dynamic;
        memcpy(context->shapes[i], tensor->dims, sizeof tensor->dims);
    }
}

void* ingot_trt_context_create(void* engine, int32_t strategy)
{
    clear_error();
    if (engine == NULL || strategy < 0 || strategy > 2)
    {
        fail(NULL, "ingot_trt_context_create: null engine or bad strategy %d", strategy);
        return NULL;
    }
    fake_context* context = calloc(1, sizeof *context);
    if (context == NULL)
    {
        fail(((fake_engine*) engine)->logger, "ingot_trt_context_create: out of memory");
        return NULL;
    }
    context->engine = engine;
    reset_shapes(context);
    return context;
}

void ingot_trt_context_destroy(void* context)
{
    free(context);
}

int32_t ingot_trt_context_set_profile_async(void* handle, int32_t profile, void* stream)
{
    (void) stream;
    clear_error();
    fake_context* context = handle;
    if (context == NULL || profile < 0 || profile >= context->engine->profile_count)
    {
        fail(context == NULL ? NULL : context->engine->logger,
            "setOptimizationProfileAsync: profile index %d is out of range", profile);
        return 0;
    }
    context->profile = profile;
    reset_shapes(context);
    return 1;
}

int32_t ingot_trt_context_set_input_shape(void* handle, const char* name, int32_t rank, const int64_t* dims)
{
    clear_error();
    fake_context* context = handle;
    if (context == NULL || name == NULL)
    {
        fail(NULL, "setInputShape: null context or name");
        return 0;
    }
    const fake_engine* engine = context->engine;
    const int index = find_tensor(engine, name);
    if (index < 0 || engine->tensors[index].mode != INGOT_TRT_IO_INPUT)
    {
        fail(engine->logger, "setInputShape: '%s' is not an input tensor", name);
        return 0;
    }
    const fake_tensor* tensor = &engine->tensors[index];
    if (rank != tensor->rank)
    {
        fail(engine->logger, "setInputShape: '%s' has rank %d, got %d dimensions", name, tensor->rank, rank);
        return 0;
    }
    for (int d = 0; d < rank; ++d)
    {
        const int64_t low = tensor->profile_dims[context->profile][INGOT_TRT_PROFILE_MIN][d];
        const int64_t high = tensor->profile_dims[context->profile][INGOT_TRT_PROFILE_MAX][d];
        if (dims[d] < low || dims[d] > high)
        {
            fail(engine->logger,
                "setInputShape: dimension %d of '%s' is %lld, outside [%lld, %lld] of optimization profile %d", d,
                name, (long long) dims[d], (long long) low, (long long) high, context->profile);
            return 0;
        }
    }
    memcpy(context->shapes[index], dims, sizeof(int64_t) * (size_t) rank);
    context->shape_set[index] = 1;
    return 1;
}

int32_t ingot_trt_context_tensor_shape(void* handle, const char* name, int64_t* out)
{
    clear_error();
    fake_context* context = handle;
    if (context == NULL || name == NULL || out == NULL)
    {
        fail(NULL, "getTensorShape: null argument");
        return -1;
    }
    const fake_engine* engine = context->engine;
    const int index = find_tensor(engine, name);
    if (index < 0)
    {
        fail(engine->logger, "getTensorShape: no tensor named '%s'", name);
        return -1;
    }
    const fake_tensor* tensor = &engine->tensors[index];
    const int source = tensor->mode == INGOT_TRT_IO_INPUT ? index : tensor->operands[0];
    if (context->shape_set[source])
    {
        memcpy(out, context->shapes[source], sizeof(int64_t) * (size_t) tensor->rank);
    }
    else
    {
        memcpy(out, tensor->dims, sizeof(int64_t) * (size_t) tensor->rank);
    }
    return tensor->rank;
}

int32_t ingot_trt_context_set_tensor_address(void* handle, const char* name, void* address)
{
    clear_error();
    fake_context* context = handle;
    if (context == NULL || name == NULL)
    {
        fail(NULL, "setTensorAddress: null context or name");
        return 0;
    }
    const int index = find_tensor(context->engine, name);
    if (index < 0)
    {
        fail(context->engine->logger, "setTensorAddress: no tensor named '%s'", name);
        return 0;
    }
    context->addresses[index] = address;
    return 1;
}

static int64_t element_count(const int64_t* dims, int rank)
{
    int64_t count = 1;
    for (int d = 0; d < rank; ++d)
    {
        count *= dims[d];
    }
    return count;
}

#define FAKE_ELEMENTWISE(type, out, a, b, n, op)                                                             \
    do                                                                                                          \
    {                                                                                                           \
        type* o_ = (type*) (out);                                                                               \
        const type* a_ = (const type*) (a);                                                                     \
        const type* b_ = (const type*) (b);                                                                     \
        for (int64_t i_ = 0; i_ < (n); ++i_)                                                                    \
        {                                                                                                       \
            o_[i_] = (op) == OP_ADD ? (type) (a_[i_] + b_[i_]) : (type) (a_[i_] - b_[i_]);                      \
        }                                                                                                       \
    } while (0)

int32_t ingot_trt_context_enqueue_v3(void* handle, void* stream)
{
    (void) stream;
    clear_error();
    fake_context* context = handle;
    if (context == NULL)
    {
        fail(NULL, "enqueueV3: null context");
        return 0;
    }
    const fake_engine* engine = context->engine;
    if (engine->fail_enqueue[0] != '\0')
    {
        fail(engine->logger, "enqueueV3: %s", engine->fail_enqueue);
        return 0;
    }
    for (int i = 0; i < engine->tensor_count; ++i)
    {
        const fake_tensor* tensor = &engine->tensors[i];
        if (tensor->mode == INGOT_TRT_IO_INPUT && !context->shape_set[i])
        {
            fail(engine->logger, "enqueueV3: the shape of input '%s' was not set", tensor->name);
            return 0;
        }
        if (context->addresses[i] == NULL)
        {
            fail(engine->logger, "enqueueV3: the address of tensor '%s' was not set", tensor->name);
            return 0;
        }
    }
    for (int i = 0; i < engine->tensor_count; ++i)
    {
        const fake_tensor* tensor = &engine->tensors[i];
        if (tensor->mode != INGOT_TRT_IO_OUTPUT)
        {
            continue;
        }
        const int first = tensor->operands[0];
        const int64_t count = element_count(context->shapes[first], engine->tensors[first].rank);
        void* out = context->addresses[i];
        const void* a = context->addresses[first];
        if (tensor->op == OP_PROFILE)
        {
            int32_t* values = out;
            for (int64_t e = 0; e < count; ++e)
            {
                values[e] = context->profile;
            }
            continue;
        }
        if (tensor->op == OP_COPY)
        {
            memmove(out, a, (size_t) count * (size_t) DTYPE_SIZES[tensor->dtype]);
            continue;
        }
        const int second = tensor->operands[1];
        if (element_count(context->shapes[second], engine->tensors[second].rank) != count)
        {
            fail(engine->logger, "enqueueV3: operands of '%s' have different element counts", tensor->name);
            return 0;
        }
        const void* b = context->addresses[second];
        switch (tensor->dtype)
        {
        case 0:
            FAKE_ELEMENTWISE(float, out, a, b, count, tensor->op);
            break;
        case 3:
            FAKE_ELEMENTWISE(int32_t, out, a, b, count, tensor->op);
            break;
        case 8:
            FAKE_ELEMENTWISE(int64_t, out, a, b, count, tensor->op);
            break;
        default:
            fail(engine->logger, "enqueueV3: add/sub of '%s' supports FLOAT, INT32 and INT64 only", tensor->name);
            return 0;
        }
    }
    return 1;
}
