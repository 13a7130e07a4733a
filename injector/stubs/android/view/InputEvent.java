package android.view;

/** JVM test stub. */
public abstract class InputEvent {
    InputEvent() {}

    public abstract int getSource();

    public abstract void setSource(int source);

    public abstract long getEventTime();
}
