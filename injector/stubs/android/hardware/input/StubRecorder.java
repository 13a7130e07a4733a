package android.hardware.input;

import android.view.InputEvent;
import android.view.MotionEvent;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * JVM test stub support, not an Android class. Records what the injector does, one line each:
 *   getInstance <class>
 *   inject action=<a> x=<x> y=<y> source=0x<s> mode=<m>
 *   stub-error <what>            (an event the real system would not accept as a gesture)
 * to the file named by the system property stub.record (appended), or else to stderr.
 * stub.deny=1: injectInputEvent throws the SecurityException a Xiaomi phone without
 * "USB debugging (Security settings)" throws. stub.drop=1: injectInputEvent returns false.
 */
final class StubRecorder {
    private static final String DENIED = "Injecting input events requires the caller (or the source of the "
            + "instrumentation, if any) to have the INJECT_EVENTS permission.";
    private static PrintStream sink;
    private static long gestureDownTime = -1;

    private StubRecorder() {}

    static synchronized void record(String line) {
        if (sink == null) {
            String path = System.getProperty("stub.record");
            if (path == null || path.isEmpty()) {
                sink = System.err;
            } else {
                try {
                    sink = new PrintStream(new FileOutputStream(path, true), true, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new IllegalStateException("stub.record: " + e, e);
                }
            }
        }
        sink.println(line);
        sink.flush();
    }

    static boolean inject(InputEvent event, int mode) {
        if ("1".equals(System.getProperty("stub.deny"))) {
            throw new SecurityException(DENIED);
        }
        if ("1".equals(System.getProperty("stub.drop"))) {
            return false;
        }
        MotionEvent ev = (MotionEvent) event;
        record("inject action=" + ev.getAction() + " x=" + ev.getX() + " y=" + ev.getY()
                + " source=0x" + Integer.toHexString(ev.getSource()) + " mode=" + mode);
        check(ev);
        return true;
    }

    /** The consistency InputDispatcher expects of one pointer's gesture. */
    private static void check(MotionEvent ev) {
        if (ev.getEventTime() < ev.getDownTime()) {
            record("stub-error eventTime " + ev.getEventTime() + " < downTime " + ev.getDownTime());
        }
        switch (ev.getAction()) {
            case MotionEvent.ACTION_DOWN:
                gestureDownTime = ev.getDownTime();
                break;
            case MotionEvent.ACTION_MOVE:
            case MotionEvent.ACTION_UP:
                if (ev.getDownTime() != gestureDownTime) {
                    record("stub-error downTime " + ev.getDownTime() + " is not the DOWN's " + gestureDownTime);
                }
                break;
            default:
                record("stub-error unexpected action " + ev.getAction());
        }
    }
}
