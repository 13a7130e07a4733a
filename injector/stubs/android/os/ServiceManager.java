package android.os;

/** JVM test stub of the hidden service registry: it knows "power" only. */
public final class ServiceManager {
    private ServiceManager() {}

    public static IBinder getService(String name) {
        return "power".equals(name) ? new IBinder() {} : null;
    }
}
