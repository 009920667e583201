package io.ingot.examples.embedding;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.client.InferenceServerException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import java.util.Map;
import java.util.concurrent.CompletionException;

/**
 * The service's errors as {@code {"error": "..."}}: a body that is not the expected JSON, or a missing or empty
 * {@code text}, is 400 naming what was wrong; Ingot refusing a request (queue full, stopping) is 503, any other
 * failure of the model 500. The service keeps serving after each.
 */
@RestControllerAdvice
public class ApiErrors
{
    /** @return 400 for a missing or empty text */
    @ExceptionHandler(IllegalArgumentException.class)
    public ResponseEntity<Map<String, String>> badText(final IllegalArgumentException bad)
    {
        return error(HttpStatus.BAD_REQUEST, bad.getMessage());
    }

    /** @return 400 for a body that is not JSON of the expected shape */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    public ResponseEntity<Map<String, String>> unreadable(final HttpMessageNotReadableException bad)
    {
        return error(HttpStatus.BAD_REQUEST, "the body must be a JSON object with a 'text' string: "
            + bad.getMostSpecificCause().getMessage().lines().findFirst().orElse(""));
    }

    /** @return 415 for a body that is not JSON */
    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    public ResponseEntity<Map<String, String>> notJson(final HttpMediaTypeNotSupportedException bad)
    {
        return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "send Content-Type: application/json (" + bad.getMessage()
            + ")");
    }

    /** @return 503 when Ingot is stopping or its queue is full, 500 for another failure of the model */
    @ExceptionHandler({InferenceException.class, InferenceServerException.class, CompletionException.class})
    public ResponseEntity<Map<String, String>> modelFailed(final RuntimeException failure)
    {
        final Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        final boolean unavailable = cause instanceof InferenceException ingot && ingot.code() == ErrorCode.UNAVAILABLE;
        return error(unavailable ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.INTERNAL_SERVER_ERROR,
            "the model failed: " + cause.getMessage());
    }

    private static ResponseEntity<Map<String, String>> error(final HttpStatus status, final String message)
    {
        return ResponseEntity.status(status).body(Map.of("error", message));
    }
}
