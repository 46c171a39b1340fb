package org.scrapycluster.common.json;

/**
 * Input that is not acceptable JSON: not valid UTF-8, malformed, empty, or beyond the
 * {@link JsonLimits}. The message says which, in words fit for a log record or an error answer.
 */
public class JsonInputException extends Exception {

    public JsonInputException(String message) {
        super(message);
    }

    public JsonInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
