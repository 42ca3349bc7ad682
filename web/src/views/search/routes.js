import { SearchBox } from './SearchBox.jsx';
import '../goroutines/views.css';

export const routes = [];
export const headerItems = [SearchBox];
