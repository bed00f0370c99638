package dev.flow.helper;

/**
 * A refusal the helper answers with a coded error line (PROTOCOL.md "Framing"):
 * the session goes on after it.
 */
public final class HelperException extends Exception {
    private static final long serialVersionUID = 1L;

    public static final String INVALID_ARGS = "INVALID_ARGS";
    public static final String COMMAND_FAILED = "COMMAND_FAILED";
    public static final String UNSUPPORTED_OPERATION = "UNSUPPORTED_OPERATION";
    public static final String TIMEOUT = "TIMEOUT";
    public static final String DEVICE_UNAVAILABLE = "DEVICE_UNAVAILABLE";
    public static final String INTERNAL = "INTERNAL";

    private final String code;
    private final String hint;

    public HelperException(String code, String message, String hint) {
        super(message);
        this.code = code;
        this.hint = hint;
    }

    public String code() {
        return code;
    }

    /** May be null: not every refusal has advice beyond its message. */
    public String hint() {
        return hint;
    }
}
