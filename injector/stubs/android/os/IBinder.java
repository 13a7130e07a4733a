package android.os;

/** JVM test stub: the type ServiceManager.getService returns. */
public interface IBinder {
}
