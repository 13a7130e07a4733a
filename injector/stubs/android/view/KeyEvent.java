package android.view;

/** JVM test stub: the public 10-argument constructor `input keyevent` uses, and its getters. */
public final class KeyEvent extends InputEvent {
    public static final int ACTION_DOWN = 0;
    public static final int ACTION_UP = 1;
    public static final int KEYCODE_UNKNOWN = 0;

    private final long downTime;
    private final long eventTime;
    private final int action;
    private final int keyCode;
    private final int repeatCount;
    private final int deviceId;
    private int source;

    public KeyEvent(long downTime, long eventTime, int action, int code, int repeat, int metaState,
            int deviceId, int scancode, int flags, int source) {
        this.downTime = downTime;
        this.eventTime = eventTime;
        this.action = action;
        this.keyCode = code;
        this.repeatCount = repeat;
        this.deviceId = deviceId;
        this.source = source;
    }

    public long getDownTime() { return downTime; }
    @Override public long getEventTime() { return eventTime; }
    public int getAction() { return action; }
    public int getKeyCode() { return keyCode; }
    public int getRepeatCount() { return repeatCount; }
    public int getDeviceId() { return deviceId; }
    @Override public int getSource() { return source; }
    @Override public void setSource(int source) { this.source = source; }
}
