package android.view;

/**
 * JVM test stub: the single-pointer subset the injector uses, built as Android's public
 * 14-argument {@code obtain} builds it (there is no 6-argument {@code obtain} here, so the injector
 * cannot fall back to it unnoticed).
 */
public final class MotionEvent extends InputEvent {
    public static final int ACTION_DOWN = 0;
    public static final int ACTION_UP = 1;
    public static final int ACTION_MOVE = 2;
    public static final int TOOL_TYPE_UNKNOWN = 0;
    public static final int TOOL_TYPE_FINGER = 1;

    /** Android's public fields of one pointer's identity. */
    public static final class PointerProperties {
        public int id;
        public int toolType;
    }

    /** Android's public fields of one pointer's axes (the ones the injector sets). */
    public static final class PointerCoords {
        public float x;
        public float y;
        public float pressure;
        public float size;
    }

    private long downTime;
    private long eventTime;
    private int action;
    private PointerProperties properties;
    private PointerCoords coords;
    private int metaState;
    private int deviceId;
    private int source;
    private boolean recycled;

    private MotionEvent() {}

    public static MotionEvent obtain(long downTime, long eventTime, int action, int pointerCount,
            PointerProperties[] pointerProperties, PointerCoords[] pointerCoords, int metaState,
            int buttonState, float xPrecision, float yPrecision, int deviceId, int edgeFlags,
            int source, int flags) {
        if (pointerCount != 1 || pointerProperties.length < 1 || pointerCoords.length < 1) {
            throw new IllegalArgumentException("stub: one pointer only, got " + pointerCount);
        }
        MotionEvent ev = new MotionEvent();
        ev.downTime = downTime;
        ev.eventTime = eventTime;
        ev.action = action;
        // obtain copies the pointers (MotionEvent.initialize → nativeInitialize).
        ev.properties = new PointerProperties();
        ev.properties.id = pointerProperties[0].id;
        ev.properties.toolType = pointerProperties[0].toolType;
        ev.coords = new PointerCoords();
        ev.coords.x = pointerCoords[0].x;
        ev.coords.y = pointerCoords[0].y;
        ev.coords.pressure = pointerCoords[0].pressure;
        ev.coords.size = pointerCoords[0].size;
        ev.metaState = metaState;
        ev.deviceId = deviceId;
        ev.source = source;
        return ev;
    }

    public long getDownTime() { check(); return downTime; }
    @Override public long getEventTime() { check(); return eventTime; }
    public int getAction() { check(); return action; }
    public float getX() { check(); return coords.x; }
    public float getY() { check(); return coords.y; }
    public float getPressure() { check(); return coords.pressure; }
    public float getSize() { check(); return coords.size; }
    public int getToolType(int pointerIndex) { check(); return properties.toolType; }
    public int getPointerId(int pointerIndex) { check(); return properties.id; }
    public int getMetaState() { check(); return metaState; }
    public int getDeviceId() { check(); return deviceId; }
    @Override public int getSource() { check(); return source; }
    @Override public void setSource(int source) { check(); this.source = source; }

    public void recycle() {
        if (recycled) {
            throw new IllegalStateException(this + " recycled twice!");
        }
        recycled = true;
    }

    private void check() {
        if (recycled) {
            throw new IllegalStateException("MotionEvent used after recycle()");
        }
    }
}
