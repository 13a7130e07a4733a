package android.view;

/** JVM test stub: the single-pointer subset the injector uses. */
public final class MotionEvent extends InputEvent {
    public static final int ACTION_DOWN = 0;
    public static final int ACTION_UP = 1;
    public static final int ACTION_MOVE = 2;

    private long downTime;
    private long eventTime;
    private int action;
    private float x;
    private float y;
    private int metaState;
    private int source;
    private boolean recycled;

    private MotionEvent() {}

    public static MotionEvent obtain(long downTime, long eventTime, int action, float x, float y, int metaState) {
        MotionEvent ev = new MotionEvent();
        ev.downTime = downTime;
        ev.eventTime = eventTime;
        ev.action = action;
        ev.x = x;
        ev.y = y;
        ev.metaState = metaState;
        return ev;
    }

    public long getDownTime() { check(); return downTime; }
    @Override public long getEventTime() { check(); return eventTime; }
    public int getAction() { check(); return action; }
    public float getX() { check(); return x; }
    public float getY() { check(); return y; }
    public int getMetaState() { check(); return metaState; }
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
