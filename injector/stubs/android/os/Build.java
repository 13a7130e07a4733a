package android.os;

/** JVM test stub: Build.VERSION.SDK_INT comes from the system property stub.sdk (default 34). */
public class Build {
    public static class VERSION {
        public static final int SDK_INT = Integer.getInteger("stub.sdk", 34);
    }
}
