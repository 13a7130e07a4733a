package android.os;

/**
 * JVM test stub of the hidden power service interface: isInteractive() is the system property
 * stub.interactive (default 1: the screen is on).
 */
public interface IPowerManager {
    boolean isInteractive();

    /** The AIDL stub; asInterface gives the proxy. */
    abstract class Stub implements IPowerManager {
        public static IPowerManager asInterface(IBinder binder) {
            if (binder == null) {
                return null;
            }
            return new IPowerManager() {
                @Override
                public boolean isInteractive() {
                    return !"0".equals(System.getProperty("stub.interactive"));
                }
            };
        }
    }
}
