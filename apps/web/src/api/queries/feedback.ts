import { ApiPath, type FeedbackSubmittedView, type TFeedbackRequest } from '@pipwise/domain';
import { useMutation } from '@tanstack/react-query';
import { http } from '../http';

/** What the feedback form sends: the parsed request's fields as the user typed them. */
export type FeedbackForm = { [K in keyof TFeedbackRequest]?: string };

/** One feedback; the server's message ("thank you") is toasted by the client like any success. */
export function useSubmitFeedbackMutation() {
  return useMutation({
    mutationFn: (form: FeedbackForm) => http.post<FeedbackSubmittedView>(ApiPath.feedbackSubmit, { ...form }),
  });
}
